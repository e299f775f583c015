/*
 * Variables: the run's state (a JSON object) as `variables` / `stat_data`, read with `getvar`,
 * written with `setvar` / `incvar` / `decvar`. A write updates this view at once (a handler
 * reads its own writes) and is recorded as an effect: nothing persists unless the engine
 * applies that effect after the run.
 *
 * A name is a lodash path ("a.b[0]", or a list of keys); a name that is a key of the state as
 * it stands wins over its reading as a path; a first key `stat_data` or `variables` names the
 * state itself, as scripts written for the MVU variable tree expect, unless the state has a
 * key of that name (a name that exists wins). `__proto__`, `constructor` and `prototype` are
 * refused as keys.
 */
(function (env) {
    "use strict";
    var jsonStringify = env.jsonStringify, TypeErrorCtor = env.TypeErrorCtor, describe = env.describe, own = env.own;
    var defineProp = env.defineProp, isFiniteNumber = env.isFiniteNumber;
    var ROOTS = env.lookup(["stat_data", "variables"]), FORBIDDEN = env.lookup(["__proto__", "constructor", "prototype"]);
    var GLOBALS = env.lookup(env.config.globals), view = null;
    function has(text, part) { return env.apply(env.stringIndexOf, text, [part]) !== -1; }

    function reset() {
        view = env.jsonParse(env.state);
        if (view === null || typeof view !== "object" || env.isArray(view)) { throw new TypeErrorCtor("the state must be a JSON object"); }
        if (GLOBALS.variables === true) { env.lazyGlobal("variables", function () { return view; }); }
        if (GLOBALS.stat_data === true) { env.lazyGlobal("stat_data", function () { return view; }); }
    }
    function keysOf(path, what) {
        var keys, out = [], i, start = 0;
        if (env.isArray(path)) { keys = path; }
        else if (typeof path !== "string") { throw new TypeErrorCtor(what + ": the variable name must be a string or a list of keys, not " + describe(path)); }
        else if (own(view, path) || (!has(path, ".") && !has(path, "["))) { keys = [path]; }
        else { keys = env.need("path").parse(path); }
        for (i = 0; i < keys.length; i += 1) { defineProp(out, i, { value: String(keys[i]), writable: true, enumerable: true, configurable: true }); }
        if (ROOTS[out[0]] === true && !own(view, out[0])) { start = 1; }
        if (out.length === start) { throw new TypeErrorCtor(what + ": name a variable, not the whole state"); }
        for (i = start; i < out.length; i += 1) {
            if (out[i] === "") { throw new TypeErrorCtor(what + ": " + jsonStringify(env.isArray(path) ? out : path) + " has an empty key"); }
            if (FORBIDDEN[out[i]] === true) { throw new TypeErrorCtor(what + ": the key " + jsonStringify(out[i]) + " is not allowed in a variable name"); }
        }
        return start === 0 ? out : env.apply(env.arraySlice, out, [start]);
    }
    function pathJson(keys) {
        var json = "[", i;
        for (i = 0; i < keys.length; i += 1) { json += (i ? "," : "") + jsonStringify(keys[i]); }
        return json + "]";
    }
    function read(keys) {
        var node = view, i;
        for (i = 0; i < keys.length; i += 1) {
            if (node === null || typeof node !== "object" || !own(node, keys[i])) { return undefined; }
            node = node[keys[i]];
        }
        return node;
    }
    function write(keys, value) {
        var node = view, i, next, last = keys.length - 1;
        for (i = 0; i < last; i += 1) {
            next = own(node, keys[i]) ? node[keys[i]] : undefined;
            if (next === null || typeof next !== "object") {
                next = {};
                defineProp(node, keys[i], { value: next, writable: true, enumerable: true, configurable: true });
            }
            node = next;
        }
        defineProp(node, keys[last], { value: value, writable: true, enumerable: true, configurable: true });
    }
    function name(keys) { return jsonStringify(env.apply(env.arrayJoin, keys, ["."])); }
    function getvar(path, options) {
        var value = read(keysOf(path, "getvar()"));
        if (value === undefined && options !== null && typeof options === "object" && own(options, "defaults")) { return options.defaults; }
        return value;
    }
    function setvar(path, value) {
        var keys = keysOf(path, "setvar()"), effects = env.need("effects");
        var json = effects.toJson(value, "setvar(" + name(keys) + ") value");
        effects.emit("setvar", "writes", effects.field("path", pathJson(keys)) + effects.field("value", json));
        write(keys, env.jsonParse(json));
        return value;
    }
    function step(by, what) {
        var amount = by === undefined ? 1 : by;
        if (typeof amount !== "number" || !isFiniteNumber(amount)) { throw new TypeErrorCtor(what + ": the step must be a finite number, not " + describe(amount)); }
        return amount;
    }
    function add(path, amount, what) {
        var keys = keysOf(path, what), current = read(keys), effects = env.need("effects");
        if (current === undefined || current === null) { current = 0; }
        if (typeof current !== "number") { throw new TypeErrorCtor(what + ": " + name(keys) + " holds " + describe(current) + ", not a number"); }
        effects.emit("incvar", "writes", effects.field("path", pathJson(keys)) + effects.field("by", jsonStringify(amount)));
        write(keys, current + amount);
        return current + amount;
    }
    reset();
    return {
        reset: reset,
        globals: {
            getvar: getvar, setvar: setvar,
            incvar: function incvar(path, by) { return add(path, step(by, "incvar()"), "incvar()"); },
            decvar: function decvar(path, by) { return add(path, -step(by, "decvar()"), "decvar()"); },
            variables: view, stat_data: view
        }
    };
})
