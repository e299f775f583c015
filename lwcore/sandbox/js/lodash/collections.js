/*
 * `_`, group "collections": iteration over arrays, array-likes, strings and objects with
 * lodash's iteratee shorthands (a function, a property path, a [path, value] pair, a partial
 * object); sortBy is stable and puts null, then undefined, then NaN after every other value.
 */
(function (env) {
    "use strict";
    var lib = env.lodash, isArray = env.isArray, each = lib.iterate, iteratee = lib.iteratee, isArrayLike = lib.isArrayLike;
    var toInteger = lib.toInteger, sameValueZero = lib.sameValueZero, identity = lib.identity;

    function startIndex(fromIndex, length) {
        var from = fromIndex == null ? 0 : toInteger(fromIndex);
        return from < 0 ? Math.max(length + from, 0) : from;
    }
    function findIndex(array, predicate, fromIndex) {
        if (!isArrayLike(array)) { return -1; }
        var test = iteratee(predicate), i;
        for (i = startIndex(fromIndex, array.length); i < array.length; i += 1) { if (test(array[i], i, array)) { return i; } }
        return -1;
    }
    function rank(value) { return value === undefined ? 2 : value === null ? 1 : value !== value ? 3 : 0; }
    function compare(a, b) {
        if (a === b) { return 0; }
        var ra = rank(a), rb = rank(b);
        if (ra !== rb) { return ra < rb ? -1 : 1; }
        return ra !== 0 ? 0 : a > b ? 1 : a < b ? -1 : 0;
    }
    function sumWith(array, fn) {
        var result, i, v;
        if (!isArrayLike(array)) { return 0; }
        for (i = 0; i < array.length; i += 1) {
            v = fn(array[i]);
            if (v !== undefined) { result = result === undefined ? v : result + v; }
        }
        return result === undefined ? 0 : result;
    }
    function until(collection, predicate, stopWhen) {
        var test = iteratee(predicate), hit = false;
        each(collection, function (v, k, c) { if (!!test(v, k, c) === stopWhen) { hit = true; return false; } return true; });
        return hit;
    }
    function forEach(collection, fn) { each(collection, typeof fn === "function" ? fn : identity); return collection; }
    return {
        findIndex: findIndex,
        forEach: forEach, each: forEach,
        map: function map(collection, fn) { var f = iteratee(fn), out = []; each(collection, function (v, k, c) { out.push(f(v, k, c)); }); return out; },
        filter: function filter(collection, fn) { var f = iteratee(fn), out = []; each(collection, function (v, k, c) { if (f(v, k, c)) { out.push(v); } }); return out; },
        find: function find(collection, predicate, fromIndex) {
            if (isArrayLike(collection)) { var at = findIndex(collection, predicate, fromIndex); return at === -1 ? undefined : collection[at]; }
            var test = iteratee(predicate), found;
            each(collection, function (v, k, c) { if (test(v, k, c)) { found = v; return false; } return true; });
            return found;
        },
        some: function some(collection, predicate) { return until(collection, predicate, true); },
        every: function every(collection, predicate) { return !until(collection, predicate, false); },
        includes: function includes(collection, value, fromIndex) {
            var list = isArrayLike(collection) ? collection : lib.values(collection), length = list.length, i;
            if (length === 0) { return false; }
            var from = startIndex(fromIndex, length);
            if (typeof list === "string") { return from <= length && list.indexOf(value, from) > -1; }
            for (i = from; i < length; i += 1) { if (sameValueZero(list[i], value)) { return true; } }
            return false;
        },
        uniq: function uniq(array) {
            if (!isArrayLike(array)) { return []; }
            var seen = new env.SetCtor(), out = [], i;
            for (i = 0; i < array.length; i += 1) { if (!seen.has(array[i])) { seen.add(array[i]); out.push(array[i]); } }
            return out;
        },
        flatten: function flatten(array) {
            if (!isArrayLike(array)) { return []; }
            var out = [], i, j, v;
            for (i = 0; i < array.length; i += 1) {
                v = array[i];
                if (isArray(v) || (lib.isObjectLike(v) && lib.tagOf(v) === "[object Arguments]")) { for (j = 0; j < v.length; j += 1) { out.push(v[j]); } }
                else { out.push(v); }
            }
            return out;
        },
        sortBy: function sortBy(collection) {
            var fns = lib.flatArgs(arguments, 1), rows = [], index = 0;
            fns = (fns.length ? fns : [identity]).map(iteratee);
            each(collection, function (v) { rows.push({ value: v, index: index, keys: fns.map(function (f) { return f(v); }) }); index += 1; });
            rows.sort(function (x, y) {
                for (var i = 0; i < fns.length; i += 1) { var c = compare(x.keys[i], y.keys[i]); if (c !== 0) { return c; } }
                return x.index - y.index;
            });
            return rows.map(function (row) { return row.value; });
        },
        groupBy: function groupBy(collection, fn) {
            var f = iteratee(fn), out = {};
            each(collection, function (v) {
                var key = lib.keyOf(f(v));
                if (env.hasOwnFn.call(out, key)) { out[key].push(v); } else { lib.putOwn(out, key, [v]); }
            });
            return out;
        },
        sum: function sum(array) { return sumWith(array, identity); },
        sumBy: function sumBy(array, fn) { return sumWith(array, iteratee(fn)); }
    };
})
