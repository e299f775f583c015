/*
 * `_`, group "objects": cloneDeep, merge, isEqual, isEmpty, pick, pickBy, omit, escape, and the
 * iteratee shorthands. Deep copies and comparisons follow cycles; merge skips `__proto__` and a
 * `constructor` that would overwrite a function, as lodash does; omit copies deeply only when a
 * path is deep, as lodash does.
 */
(function (env) {
    "use strict";
    var lib = env.lodash, isArray = env.isArray, ownKeys = env.ownKeys, getProto = env.getProto, hasOwnFn = env.hasOwnFn;
    var tagOf = lib.tagOf, isObject = lib.isObject, isObjectLike = lib.isObjectLike, isArrayLike = lib.isArrayLike;
    var isPlainObject = lib.isPlainObject, putOwn = lib.putOwn, sameValueZero = lib.sameValueZero, MapCtor = env.MapCtor;

    function cloneDeep(value) {
        var seen = new MapCtor();
        function copy(v, nested) {
            if (!isObject(v)) { return v; }
            if (typeof v === "function") { return nested ? v : {}; }
            if (seen.has(v)) { return seen.get(v); }
            var out, tag = tagOf(v), i, k;
            if (isArray(v)) {
                out = new Array(v.length); seen.set(v, out);
                for (i = 0; i < v.length; i += 1) { out[i] = copy(v[i], true); }
                return out;
            }
            if (tag === "[object Date]") { out = new env.RealDate(v.getTime()); }
            else if (tag === "[object RegExp]") { out = new env.RegExpCtor(v.source, v.flags); out.lastIndex = v.lastIndex; }
            else if (tag === "[object Number]" || tag === "[object String]" || tag === "[object Boolean]") { out = Object(v.valueOf()); }
            if (out !== undefined) { seen.set(v, out); return out; }
            if (tag === "[object Map]") { out = new MapCtor(); seen.set(v, out); v.forEach(function (val, key) { out.set(key, copy(val, true)); }); return out; }
            if (tag === "[object Set]") { out = new env.SetCtor(); seen.set(v, out); v.forEach(function (val) { out.add(copy(val, true)); }); return out; }
            if (tag !== "[object Object]" && tag !== "[object Arguments]") { return nested ? v : {}; }
            out = tag === "[object Arguments]" ? {} : Object.create(getProto(v)); seen.set(v, out);
            k = ownKeys(v);
            for (i = 0; i < k.length; i += 1) { putOwn(out, k[i], copy(v[k[i]], true)); }
            k = Object.getOwnPropertySymbols(v);
            for (i = 0; i < k.length; i += 1) { if (Object.prototype.propertyIsEnumerable.call(v, k[i])) { out[k[i]] = copy(v[k[i]], true); } }
            return out;
        }
        return copy(value, false);
    }
    function mergeInto(target, source, seen) {
        var key, src, dst, next;
        for (key in source) {
            if (key === "__proto__" || (key === "constructor" && typeof target[key] === "function")) { continue; }
            src = source[key]; dst = target[key];
            if (isObjectLike(src) && (isArray(src) || isPlainObject(src) || tagOf(src) === "[object Arguments]")) {
                if (seen.has(src)) { putOwn(target, key, seen.get(src)); continue; }
                if (isArray(src)) { next = isArray(dst) ? dst : (isObjectLike(dst) && isArrayLike(dst) ? Array.prototype.slice.call(dst) : []); }
                else if (isObject(dst) && typeof dst !== "function") { next = tagOf(dst) === "[object Arguments]" ? Object.assign({}, dst) : dst; }
                else { next = Object.create(getProto(src)); }
                seen.set(src, next);
                mergeInto(next, src, seen);
                putOwn(target, key, next);
            } else if ((src !== undefined || !(key in target)) && !(sameValueZero(dst, src) && hasOwnFn.call(target, key))) {
                putOwn(target, key, src);
            }
        }
    }
    function equal(a, b, stack) {
        if (a === b || (a !== a && b !== b)) { return true; }
        if (!isObjectLike(a) || !isObjectLike(b)) { return false; }
        var tag = tagOf(a), i, ka, key;
        if (tag !== tagOf(b)) { return false; }
        for (i = 0; i < stack.length; i += 1) { if (stack[i][0] === a) { return stack[i][1] === b; } }
        if (tag === "[object Date]" || tag === "[object Number]") { return sameValueZero(+a, +b); }
        if (tag === "[object String]" || tag === "[object Boolean]" || tag === "[object RegExp]") { return String(a) === String(b); }
        stack.push([a, b]);
        try {
            if (tag === "[object Map]" || tag === "[object Set]") {
                if (a.size !== b.size) { return false; }
                return equal(Array.from(a.entries()), Array.from(b.entries()), stack);
            }
            if (isArray(a)) {
                if (a.length !== b.length) { return false; }
                for (i = 0; i < a.length; i += 1) { if (!equal(a[i], b[i], stack)) { return false; } }
                return true;
            }
            ka = ownKeys(a);
            if (ka.length !== ownKeys(b).length) { return false; }
            for (i = 0; i < ka.length; i += 1) {
                key = ka[i];
                if (!hasOwnFn.call(b, key) || !equal(a[key], b[key], stack)) { return false; }
            }
            var ca = a.constructor, cb = b.constructor;
            return ca === cb || !("constructor" in a && "constructor" in b) ||
                (typeof ca === "function" && ca instanceof ca && typeof cb === "function" && cb instanceof cb);
        } finally {
            stack.pop();
        }
    }
    function isEqual(a, b) { return equal(a, b, []); }
    function isMatch(object, source) {
        var keys = ownKeys(source), i, key;
        if (object == null) { return keys.length === 0; }
        object = Object(object);
        for (i = 0; i < keys.length; i += 1) {
            key = keys[i];
            if (!(key in object)) { return false; }
            if (isObjectLike(source[key]) && isObjectLike(object[key]) && !isArray(source[key])) {
                if (!isMatch(object[key], source[key])) { return false; }
            } else if (!isEqual(object[key], source[key])) {
                return false;
            }
        }
        return true;
    }
    function iteratee(value) {
        if (typeof value === "function") { return value; }
        if (value == null) { return lib.identity; }
        if (isArray(value)) {
            var path = value[0], expected = value[1];
            return function (item) {
                var got = lib.get(item, path);
                if (got === undefined && expected === undefined) { return item != null && lib.hasIn(item, lib.castPath(path, item)); }
                return isObjectLike(expected) && !isArray(expected) ? isMatch(got, expected) : isEqual(got, expected);
            };
        }
        if (typeof value === "object") { var source = cloneDeep(value); return function (item) { return isMatch(item, source); }; }
        return function (item) { return lib.get(item, value); };
    }
    return {
        cloneDeep: cloneDeep, isEqual: isEqual, iteratee: iteratee,
        merge: function merge(object) {
            var i, target = object == null ? {} : Object(object);
            for (i = 1; i < arguments.length; i += 1) { if (arguments[i] != null) { mergeInto(target, arguments[i], new MapCtor()); } }
            return target;
        },
        isEmpty: function isEmpty(value) {
            if (value == null) { return true; }
            if (isArrayLike(value) && (isArray(value) || typeof value === "string" || tagOf(value) === "[object Arguments]" || typeof value.splice === "function")) {
                return !value.length;
            }
            if (value instanceof MapCtor || value instanceof env.SetCtor) { return !value.size; }
            for (var k in value) { if (hasOwnFn.call(value, k)) { return false; } }
            return true;
        },
        pick: function pick(object) {
            var out = {}, paths = lib.flatArgs(arguments, 1), i, path;
            if (object == null) { return out; }
            for (i = 0; i < paths.length; i += 1) {
                path = lib.castPath(paths[i], object);
                if (lib.hasIn(object, path)) { lib.set(out, path, lib.baseGet(object, path)); }
            }
            return out;
        },
        pickBy: function pickBy(object, predicate) {
            var out = {}, test = iteratee(predicate), k;
            if (object == null) { return out; }
            for (k in object) { if (test(object[k], k)) { putOwn(out, k, object[k]); } }
            return out;
        },
        omit: function omit(object) {
            var out = {}, paths = lib.flatArgs(arguments, 1), deep = false, i, k;
            if (object == null) { return out; }
            for (i = 0; i < paths.length; i += 1) { paths[i] = lib.castPath(paths[i], object); deep = deep || paths[i].length > 1; }
            for (k in object) { putOwn(out, k, deep ? cloneDeep(object[k]) : object[k]); }
            for (i = 0; i < paths.length; i += 1) { lib.unset(out, paths[i]); }
            return out;
        },
        escape: function escape(value) {
            return lib.toString(value).replace(/[&<>"']/g, function (ch) {
                return ch === "&" ? "&amp;" : ch === "<" ? "&lt;" : ch === ">" ? "&gt;" : ch === "\"" ? "&quot;" : "&#39;";
            });
        }
    };
})
