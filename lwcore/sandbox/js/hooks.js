/*
 * Hooks: `on(event, handler)` at the top of a script; `dispatch` runs one event's handlers in
 * the order they were registered, each with its own copy of the event object. A handler may
 * be async: its promise jobs run before the event's effects are read, a rejection fails the
 * event with its own error, and a promise that never settles is a failure too (its effects
 * could never arrive).
 */
(function (env) {
    "use strict";
    var apply = env.apply, jsonStringify = env.jsonStringify, TypeErrorCtor = env.TypeErrorCtor, describe = env.describe;
    var EVENTS = env.lookup(env.config.events), handlers = env.createObject(null), warnings = "";
    var pending = 0, failed = false, reason = null;

    function on(event, handler) {
        if (typeof event !== "string") { throw new TypeErrorCtor("on(event, handler): the event must be a string, not " + describe(event)); }
        if (typeof handler !== "function") { throw new TypeErrorCtor("on(" + jsonStringify(event) + ", handler): the handler must be a function, not " + describe(handler)); }
        if (!env.loadingScript) { throw new env.ErrorCtor("on() registers handlers at the top of the script, not inside a handler"); }
        if (EVENTS[event] !== true) {
            var line = env.need("effects").line();
            var text = (line === null ? "" : "line " + line + ": ") + "on(" + jsonStringify(event) + "): this host never fires that event (it fires " +
                apply(env.arrayJoin, env.config.events, [", "]) + ")";
            warnings += (warnings === "" ? "" : ",") + jsonStringify(text);
            return;
        }
        var list = handlers[event];
        if (list === undefined) { list = handlers[event] = []; }
        env.defineProp(list, list.length, { value: handler, writable: true, enumerable: true, configurable: true });
    }
    function track(result) {
        if (!(result instanceof env.PromiseCtor)) { return; }
        pending += 1;
        apply(env.promiseThen, result, [
            function () { pending -= 1; },
            function (error) { pending -= 1; if (!failed) { failed = true; reason = error; } }
        ]);
    }
    return {
        globals: { on: on },
        dispatch: function (event, payload) {
            var list = handlers[event], i, handler;
            env.event = event;
            for (i = 0; list !== undefined && i < list.length; i += 1) { handler = list[i]; track(handler(env.jsonParse(payload))); }
        },
        finish: function () {
            env.event = undefined;
            if (failed) { var error = reason; failed = false; reason = null; throw error; }
            if (pending > 0) { pending = 0; throw new env.ErrorCtor("an async handler never finished: it waits on a promise that never settles"); }
        },
        warnings: function () { return "[" + warnings + "]"; }
    };
})
