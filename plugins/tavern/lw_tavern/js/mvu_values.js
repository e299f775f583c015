/*
 * MagVarUpdate's readings of text, run in the kernel's sandbox with the libraries it reads them
 * with (this file is ours; the libraries are the npm packages of lw_tavern/jsdeps.py, handed in
 * as `input`): `parseString` ([InitVar] entries, <JSONPatch> bodies: YAML 1.2 with merge keys
 * first unless the text starts with [ or {, then JSON5, then JSON after jsonrepair) and
 * `parseCommandValue` (a command's argument: true/false/null/undefined, JSON, a JavaScript
 * object or array literal, a mathjs expression, YAML, else the text without its edge quotes).
 *
 * input = {items: [{kind: "parse" | "value", text} | {kind: "yaml", value}], yaml: {path: source}, json5, jsonrepair,
 *          mathjs (only on a second run, for the items that reached mathjs)}
 * value = [{v} | {undef: true} | {error} | {math: true} (mathjs needed, not handed in)]
 */
(function () {
    var libs = {};
    function umd(src) {
        var module = { exports: {} };
        (0, eval)("(function (module, exports, define) {" + src + "\n})")(module, module.exports, undefined);
        return module.exports;
    }
    function yamlLib() {
        var files = input.yaml || {}, cache = {};
        function req(from, spec) {
            if (spec === "process") { return { env: {}, emitWarning: function () {} }; }
            if (spec === "buffer") { return { Buffer: undefined }; }
            var parts = from.split("/");
            parts.pop();
            spec.split("/").forEach(function (p) { if (p === "..") { parts.pop(); } else if (p !== ".") { parts.push(p); } });
            var path = parts.join("/");
            if (files[path] === undefined && files[path + ".js"] !== undefined) { path += ".js"; }
            if (files[path] === undefined) { throw new Error("yaml: no module " + path); }
            if (cache[path]) { return cache[path].exports; }
            var module = { exports: {} };
            cache[path] = module;
            (0, eval)("(function (module, exports, require) {" + files[path] + "\n})")(
                module, module.exports, function (s) { return req(path, s); });
            return module.exports;
        }
        return req("dist/index.js", "./index.js");
    }
    function lib(name) {
        if (libs[name] === undefined) {
            libs[name] = name === "yaml" ? yamlLib() : umd(input[name]);
        }
        return libs[name];
    }
    function plain(value) {
        /* what the chat variables keep: JSON (functions and undefined dropped, NaN null) */
        var text = JSON.stringify(value);
        return text === undefined ? { undef: true } : { v: JSON.parse(text) };
    }
    function message(error) { return String(error && error.message !== undefined ? error.message : error).split("\n")[0]; }

    function parseString(content) {
        var jsonFirst = /^[[{]/.test(content.trimStart()), yamlError, json5Error, jsonError;
        if (!jsonFirst) {
            try { return lib("yaml").parseDocument(content, { merge: true }).toJS(); } catch (e) { yamlError = e; }
        }
        try { return lib("json5").parse(content); } catch (e) { json5Error = e; }
        try { return JSON.parse(lib("jsonrepair").jsonrepair(content)); } catch (e) { jsonError = e; }
        if (jsonFirst) {
            try { return lib("yaml").parseDocument(content, { merge: true }).toJS(); } catch (e) { yamlError = e; }
        }
        throw new Error("not YAML, JSON or JSON5 (YAML: " + message(yamlError) + "; JSON5: " + message(json5Error)
                        + "; JSON: " + message(jsonError) + ")");
    }
    function trimQuotes(str) { return str.replace(/^[\\"'` ]*(.*?)[\\"'` ]*$/, "$1"); }

    function parseValue(valStr) {
        var trimmed = valStr.trim();
        if (trimmed === "true") { return { v: true }; }
        if (trimmed === "false") { return { v: false }; }
        if (trimmed === "null") { return { v: null }; }
        if (trimmed === "undefined") { return { undef: true }; }
        try {
            return plain(JSON.parse(trimmed));
        } catch (e) {
            if ((trimmed[0] === "{" && trimmed[trimmed.length - 1] === "}")
                || (trimmed[0] === "[" && trimmed[trimmed.length - 1] === "]")) {
                try {
                    var literal = new Function("return " + trimmed + ";")();
                    if (literal !== null && typeof literal === "object") { return plain(literal); }
                } catch (err) { /* a text or an expression: go on */ }
            }
        }
        if (!input.mathjs) { return { math: true }; }
        try {
            var math = lib("mathjs");
            var result = math.evaluate(trimmed, { Math: Math, math: math });
            if (math.isComplex(result) || math.isMatrix(result)) { return { v: result.toString() }; }
            if (result === undefined && !/^[a-zA-Z_]+$/.test(trimmed)) { return { v: trimmed }; }
            if (result !== undefined) { return plain(parseFloat(result.toPrecision(12))); }
        } catch (err) { /* not an expression */ }
        try { return plain(lib("yaml").parse(trimmed)); } catch (e) { /* not YAML */ }
        return { v: trimQuotes(valStr) };
    }

    var out = [];
    for (var i = 0; i < input.items.length; i += 1) {
        var item = input.items[i];
        try {
            if (item.kind === "yaml") {
                out.push({ v: lib("yaml").stringify(item.value, { blockQuote: "literal" }).trimEnd() });
            } else {
                out.push(item.kind === "parse" ? plain(parseString(item.text)) : parseValue(item.text));
            }
        } catch (e) {
            out.push({ error: message(e) });
        }
    }
    return out;
})()
