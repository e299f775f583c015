/*
 * Effects: the emitters a script calls, the per-run counts, and the buffer Python reads back.
 *
 * An effect is serialized at the call that emits it, with the captured JSON.stringify and a
 * replacer that refuses what JSON would silently change (NaN, Infinity, undefined or a
 * function in a list, a Map or a Set), so a throwing getter, a cycle or a `toJSON` trick fails
 * at that call, on the script's own line. The buffer is one string of JSON text: nothing the
 * script can reach or re-shape. Sizes and shapes are checked again in Python.
 */
(function (env) {
    "use strict";
    var apply = env.apply, jsonStringify = env.jsonStringify, TypeErrorCtor = env.TypeErrorCtor, describe = env.describe;
    var isArray = env.isArray, isFiniteNumber = env.isFiniteNumber, config = env.config;
    var caps = env.createObject(null), only = env.createObject(null), counts = env.createObject(null), buffer = "";
    var kinds = env.ownKeys(config.only), k;
    for (k = 0; k < kinds.length; k += 1) { only[kinds[k]] = env.lookup(config.only[kinds[k]]); }
    kinds = env.ownKeys(config.caps);
    for (k = 0; k < kinds.length; k += 1) { caps[kinds[k]] = config.caps[kinds[k]]; }

    /* The script's line that called an emitter: the first frame past the sandbox's own (all on
       line 1). Eight frames reach it through any emitter and `_` callback; fewer is cheaper.
       The frames are read as call sites (QuickJS runs prepareStackTrace as the error is made),
       not parsed out of stack text: a third of the cost, which a 200-call prep plan pays 200
       times. The script's own prepareStackTrace and stackTraceLimit are put back after. */
    var found = null;
    function firstScriptLine(error, sites) {
        var k, line;
        for (k = 0; k < sites.length; k += 1) {
            line = sites[k].getLineNumber();
            if (typeof line === "number" && line >= 2) { found = line - 1; return ""; }
        }
        return "";
    }
    function scriptLine() {
        var E = env.ErrorCtor, limit, prepare;
        found = null;
        try {
            limit = E.stackTraceLimit; prepare = E.prepareStackTrace;
            try { E.stackTraceLimit = 8; E.prepareStackTrace = firstScriptLine; new E(); }
            finally { E.stackTraceLimit = limit; E.prepareStackTrace = prepare; }
        } catch (e) { return null; }
        return found;
    }
    function refuse(what, value, key, where) {
        throw new TypeErrorCtor(what + " holds " + (typeof value === "number" ? String(value) : describe(value)) +
            (where || (key === "" ? "" : " under " + jsonStringify(key))) + ", which JSON cannot carry");
    }
    function replacer(what) {
        return function (key, value) {
            var t = typeof value;
            if (t === "number") { return isFiniteNumber(value) ? value : refuse(what, value, key); }
            if (t === "string" || t === "boolean" || value === null) { return value; }
            if (t === "undefined" || t === "function" || t === "symbol" || t === "bigint") {
                if (isArray(this)) { refuse(what, value, key, " in a list"); }
                return t === "bigint" ? refuse(what, value, key) : undefined;
            }
            var tag = apply(env.tagFn, value, []);
            if (tag === "[object Object]" || tag === "[object Array]" || tag === "[object String]" || tag === "[object Boolean]" ||
                (tag === "[object Number]" && isFiniteNumber(+value))) { return value; }
            return refuse(what, value, key);
        };
    }
    function toJson(value, what) {
        var t = typeof value;
        if (t === "undefined" || t === "function" || t === "symbol") { throw new TypeErrorCtor(what + " is " + describe(value) + ", not a JSON value"); }
        return jsonStringify(value, replacer(what));
    }
    function text(value, what) {
        if (typeof value !== "string") { throw new TypeErrorCtor(what + " must be a string, not " + describe(value)); }
        return jsonStringify(value);
    }
    function emit(kind, cap, fields) {
        if (config.armed !== true && env.event === undefined) {
            throw new env.ErrorCtor(kind + "() can only be called inside an on(...) handler" + (env.loadingScript ? ", not at the top of the script" : ""));
        }
        if (only[kind] !== undefined && only[kind][env.event] !== true) {
            throw new env.ErrorCtor(kind + "() has no effect in a " + env.event + " handler (only in " + apply(env.arrayJoin, env.ownKeys(only[kind]), [", "]) + ")");
        }
        var count = (counts[cap] || 0) + 1;
        if (caps[cap] !== undefined && count > caps[cap]) {
            throw new env.RangeErrorCtor(kind + "(): more than " + caps[cap] + " " + cap + " in one run (the limit)");
        }
        var line = scriptLine();
        var json = "{\"kind\":\"" + kind + "\",\"line\":" + (line === null ? "null" : line) + fields + "}";
        if (buffer.length + json.length + 1 > config.output_chars) {
            throw new env.RangeErrorCtor(kind + "(): the run's effects passed " + config.output_chars + " characters of JSON (the limit)");
        }
        counts[cap] = count;
        buffer = buffer === "" ? json : buffer + "," + json;
    }
    function field(name, json) { return ",\"" + name + "\":" + json; }
    function object(value, what, given) {
        if (value === null || typeof value !== "object" || isArray(value)) { throw new TypeErrorCtor(what + " must be an object, not " + describe(given)); }
        return value;
    }
    function forLog(value) {
        if (typeof value === "string") { return value; }
        try { var json = jsonStringify(value); if (typeof json === "string") { return json; } } catch (e) { return String(value); }
        return String(value);
    }
    return {
        emit: emit, field: field, toJson: toJson, line: scriptLine,
        take: function () { var out = "[" + buffer + "]"; buffer = ""; return out; },
        globals: {
            inject: function inject(value) { emit("inject", "inject", field("text", text(value, "inject(text): text"))); },
            narrate: function narrate(value) { emit("narrate", "narrate", field("text", text(value, "narrate(text): text"))); },
            rewriteReply: function rewriteReply(value) { emit("rewriteReply", "rewriteReply", field("text", text(value, "rewriteReply(text): text"))); },
            log: function log(value) { emit("log", "log", field("text", jsonStringify(forLog(value)))); },
            emitUI: function emitUI(blocks, options) {
                if (!isArray(blocks)) { throw new TypeErrorCtor("emitUI(blocks, options): blocks must be a list of blocks, not " + describe(blocks)); }
                var opts = object(options === undefined ? {} : options, "emitUI(blocks, options): options", options);
                emit("emitUI", "emitUI", field("blocks", toJson(blocks, "emitUI() blocks")) + field("options", toJson(opts, "emitUI() options")));
            },
            emitPanel: function emitPanel(panel, payload) {
                emit("emitPanel", "emitPanel", field("panel", text(panel, "emitPanel(panel, payload): panel")) + field("payload", toJson(payload, "emitPanel() payload")));
            },
            plan: function plan(tool, args) {
                var name = text(tool, "plan(tool, args): tool");
                var given = object(args === undefined ? {} : args, "plan(" + name + ", args): args", args);
                emit("plan", "plan", field("tool", name) + field("args", toJson(given, "plan(" + name + ") args")));
            }
        }
    };
})
