/*
 * A script's own value: the completion value of a template, or what `resolve(input)` returns.
 * A promise is followed to its end (the jobs run between the calls); the value leaves as JSON.
 */
(function (env) {
    "use strict";
    var state = { done: true, failed: false, value: undefined, error: null };
    function keep(value) {
        var mine = { done: !(value instanceof env.PromiseCtor), failed: false, value: value, error: null };
        state = mine;
        if (!mine.done) {
            env.apply(env.promiseThen, value, [
                function (v) { mine.done = true; mine.value = v; },
                function (error) { mine.done = true; mine.failed = true; mine.error = error; }
            ]);
        }
    }
    return {
        keep: keep,
        call: function (name, input) {
            var fn = env.G[name];
            if (typeof fn !== "function") { throw new env.TypeErrorCtor("the script defines no function " + name + "(input)"); }
            keep(fn(env.jsonParse(input)));
        },
        result: function (what) {
            if (!state.done) { throw new env.ErrorCtor(what + " is a promise that never settles"); }
            if (state.failed) { throw state.error; }
            var value = state.value;
            if (value === undefined) { return "null"; }
            return env.need("effects").toJson(value, what);
        }
    };
})
