/*
 * `_`, group "numbers": clamp, inRange, random, sample, shuffle, range, round, times.
 * random / sample / shuffle draw from the sandbox's seeded source, never from the host.
 */
(function (env) {
    "use strict";
    var lib = env.lodash, random = env.random, toNumber = lib.toNumber, toFinite = lib.toFinite, toInteger = lib.toInteger;
    var isArrayLike = lib.isArrayLike;

    function bound(value) { var n = toNumber(value); return n === n ? n : 0; }
    return {
        clamp: function clamp(number, lower, upper) {
            if (upper === undefined) { upper = lower; lower = undefined; }
            var n = toNumber(number);
            if (n === n) {
                if (upper !== undefined) { n = Math.min(n, bound(upper)); }
                if (lower !== undefined) { n = Math.max(n, bound(lower)); }
            }
            return n;
        },
        inRange: function inRange(number, start, end) {
            var lo = toFinite(start), hi;
            if (end === undefined) { hi = lo; lo = 0; } else { hi = toFinite(end); }
            var n = toNumber(number);
            return n >= Math.min(lo, hi) && n < Math.max(lo, hi);
        },
        random: function random2(lower, upper, floating) {
            if (floating === undefined) {
                if (typeof upper === "boolean") { floating = upper; upper = undefined; }
                else if (typeof lower === "boolean") { floating = lower; lower = undefined; }
            }
            if (lower === undefined && upper === undefined) { lower = 0; upper = 1; }
            else {
                lower = toFinite(lower);
                if (upper === undefined) { upper = lower; lower = 0; } else { upper = toFinite(upper); }
            }
            if (lower > upper) { var swap = lower; lower = upper; upper = swap; }
            if (floating || lower % 1 || upper % 1) { return lower + random() * (upper - lower); }
            return lower + Math.floor(random() * (upper - lower + 1));
        },
        sample: function sample(collection) {
            var list = isArrayLike(collection) ? collection : lib.values(collection);
            return list.length ? list[Math.floor(random() * list.length)] : undefined;
        },
        shuffle: function shuffle(collection) {
            var list = isArrayLike(collection) ? Array.prototype.slice.call(collection) : lib.values(collection), i, j, t;
            for (i = list.length - 1; i > 0; i -= 1) { j = Math.floor(random() * (i + 1)); t = list[i]; list[i] = list[j]; list[j] = t; }
            return list;
        },
        range: function range(start, end, step) {
            start = toFinite(start);
            if (end === undefined) { end = start; start = 0; } else { end = toFinite(end); }
            step = step === undefined ? (start < end ? 1 : -1) : toFinite(step);
            var length = Math.max(Math.ceil((end - start) / (step || 1)), 0), out = [], i;
            for (i = 0; i < length; i += 1) { out.push(start); start += step; }
            return out;
        },
        round: function round(number, precision) {
            var n = toNumber(number), p = precision == null ? 0 : Math.min(toInteger(precision), 292);
            if (!p || n !== n || !isFinite(n)) { return Math.round(n); }
            var parts = (lib.textOf(n) + "e").split("e");
            var shifted = Math.round(Number(parts[0] + "e" + (Number(parts[1]) + p)));
            parts = (lib.textOf(shifted) + "e").split("e");
            return Number(parts[0] + "e" + (Number(parts[1]) - p));
        },
        times: function times(n, fn) {
            var count = toInteger(n), f = typeof fn === "function" ? fn : lib.identity, out = [], i;
            if (count < 1 || count > 9007199254740991) { return []; }
            for (i = 0; i < count; i += 1) { out.push(f(i)); }
            return out;
        }
    };
})
