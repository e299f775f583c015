/*
 * The sandbox core: compiled first in every fresh context, before any script.
 *
 * An expression: a factory called with the run's configuration (runtime.py); it captures what
 * later code relies on, installs the run's globals and returns `host`, the one function the
 * Python side calls. `host` is never stored where a script can reach it.
 *
 * QuickJS compiles about 15-20 characters of source a microsecond and the binding cannot keep
 * bytecode between contexts, so a run pays for every line it compiles. Only this file is
 * compiled up front; every other part (effects, variables, hooks, Date, each group of `_`)
 * is a chunk compiled the first time the script touches it (`need`), from source text Python
 * handed in with `set` (a few microseconds). A global the mode allows is an accessor that
 * compiles its chunk on first use and then becomes a plain, writable value.
 *
 * Every file is joined into ONE line before compiling (block comments only; every statement
 * ends with a semicolon), so all sandbox frames report line 1 and a script, evaluated after a
 * leading newline, keeps its own line numbers shifted by exactly one: failures are located in
 * the script, never in the sandbox.
 */
(function (config) {
    "use strict";
    var G = globalThis, apply = Reflect.apply, defineProp = Object.defineProperty, createObject = Object.create;
    var env = createObject(null);
    var captured = {
        G: G, apply: apply, construct: Reflect.construct, defineProp: defineProp, createObject: createObject,
        jsonStringify: JSON.stringify, jsonParse: JSON.parse, ownKeys: Object.keys, getProto: Object.getPrototypeOf,
        ErrorCtor: Error, TypeErrorCtor: TypeError, RangeErrorCtor: RangeError, PromiseCtor: Promise,
        promiseThen: Promise.prototype.then, isArray: Array.isArray, hasOwnFn: Object.prototype.hasOwnProperty,
        tagFn: Object.prototype.toString, isFiniteNumber: Number.isFinite, stringSlice: String.prototype.slice,
        stringIndexOf: String.prototype.indexOf,
        arraySlice: Array.prototype.slice, arrayJoin: Array.prototype.join, regexpExec: RegExp.prototype.exec,
        indirectEval: G.eval, RealDate: Date, MapCtor: Map, SetCtor: Set, RegExpCtor: RegExp, ProxyCtor: Proxy,
        config: config
    };
    var names = Object.keys(captured), i;
    for (i = 0; i < names.length; i += 1) { env[names[i]] = captured[names[i]]; }
    var sources = createObject(null), chunks = createObject(null), loading = createObject(null);
    var split = String(G.__lw_sources).split("\u0001");
    for (i = 0; i + 1 < split.length; i += 2) { sources[split[i]] = split[i + 1]; }
    delete G.__lw_sources;

    env.own = function (object, key) { return object !== null && object !== undefined && apply(env.hasOwnFn, object, [key]); };
    env.lookup = function (list) { var table = createObject(null), k; for (k = 0; k < list.length; k += 1) { table[list[k]] = true; } return table; };
    env.describe = function (value) {
        if (value === null) { return "null"; }
        var t = typeof value;
        if (t !== "object") { return t === "undefined" ? "undefined" : "a " + t; }
        if (env.isArray(value)) { return "an array"; }
        var tag = apply(env.stringSlice, apply(env.tagFn, value, []), [8, -1]);
        return tag === "Object" ? "an object" : "a " + tag;
    };
    env.need = function (name) {
        var chunk = chunks[name];
        if (chunk !== undefined) { return chunk; }
        if (loading[name] === true || sources[name] === undefined) { throw new env.ErrorCtor("sandbox part " + name + " is not available here"); }
        loading[name] = true;
        chunk = env.indirectEval(sources[name])(env);
        chunks[name] = chunk;
        return chunk;
    };
    env.loaded = function (name) { return chunks[name]; };

    /* sfc32, seeded by Python from the caller's seed: Math.random and `_` share it */
    var sa = config.seed[0] | 0, sb = config.seed[1] | 0, sc = config.seed[2] | 0, sd = config.seed[3] | 0;
    env.random = function () {
        var t = (((sa + sb) | 0) + sd) | 0;
        sd = (sd + 1) | 0; sa = sb ^ (sb >>> 9); sb = (sc + (sc << 3)) | 0;
        sc = (sc << 21) | (sc >>> 11); sc = (sc + t) | 0;
        return (t >>> 0) / 4294967296;
    };
    for (i = 0; i < 12; i += 1) { env.random(); }
    defineProp(Math, "random", { value: function random() { return env.random(); }, writable: true, configurable: true });
    ["performance", "WeakRef", "FinalizationRegistry", "SharedArrayBuffer", "Atomics"].forEach(function (name) { delete G[name]; });
    Error.stackTraceLimit = 32;

    function settle(value) { defineProp(G, this.name, { value: value, writable: true, enumerable: false, configurable: true }); }
    env.lazyGlobal = function (name, make) {
        var slot = { name: name };
        defineProp(G, name, {
            get: function () { var value = make(); apply(settle, slot, [value]); return value; },
            set: function (value) { apply(settle, slot, [value]); },
            enumerable: false, configurable: true
        });
    };
    var parts = config.parts;
    for (i = 0; i < config.globals.length; i += 1) {
        (function (name) {
            var part = parts[name];
            env.lazyGlobal(name, function () { return env.need(part).globals[name]; });
        })(config.globals[i]);
    }
    env.lazyGlobal("Date", function () { return env.need("date"); });
    if (config.input !== null) { defineProp(G, "input", { value: env.jsonParse(config.input), writable: true, configurable: true }); }
    env.state = "{}";
    env.loadingScript = false;

    /* The binding cannot return a rope (a string built by concatenation): slice flattens it. */
    function flat(text) { return apply(env.stringSlice, text, [0]); }
    function take() { var effects = env.loaded("effects"); return effects === undefined ? "[]" : effects.take(); }
    return function host(command, a, b) {
        if (command === "load") {
            env.loadingScript = true;
            try {
                var completion = env.indirectEval("\n" + a);
                if (config.keep === true) { env.need("outcome").keep(completion); }
            } finally { env.loadingScript = false; }
            return null;
        }
        if (command === "state") {
            env.state = a;
            var vars = env.loaded("vars");
            if (vars !== undefined) { vars.reset(); }
            return null;
        }
        if (command === "dispatch") { env.need("hooks").dispatch(a, b); return null; }
        if (command === "collect") {
            var hooks = env.loaded("hooks");
            if (hooks !== undefined) { hooks.finish(); }
            return flat(take());
        }
        if (command === "call") { env.need("outcome").call(a, b); return null; }
        if (command === "result") { var out = env.need("outcome").result(a); return flat("[" + out + "," + take() + "]"); }
        if (command === "warnings") { var h = env.loaded("hooks"); return h === undefined ? "[]" : flat(h.warnings()); }
        throw new env.ErrorCtor("unknown host command " + command);
    };
})
