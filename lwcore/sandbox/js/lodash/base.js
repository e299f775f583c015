/*
 * `_`, group "base": type tests, conversions, keys and values (no dependencies).
 * A lodash-compatible `_` written for this project; no lodash code is copied. Semantics follow
 * lodash 4's documentation and were compared case by case with lodash 4.17.21 under Node.
 */
(function (env) {
    "use strict";
    var tagFn = env.tagFn, hasOwnFn = env.hasOwnFn, getProto = env.getProto, ownKeys = env.ownKeys, isArray = env.isArray;
    var ObjectProto = Object.getPrototypeOf({}), MAX_SAFE = 9007199254740991, INDEX = /^(?:0|[1-9]\d*)$/;

    function tagOf(value) { return tagFn.call(value); }
    function isObjectLike(value) { return value !== null && typeof value === "object"; }
    function isObject(value) { var t = typeof value; return value !== null && (t === "object" || t === "function"); }
    function isLength(n) { return typeof n === "number" && n > -1 && n % 1 === 0 && n <= MAX_SAFE; }
    function isArrayLike(value) { return value != null && typeof value !== "function" && isLength(value.length); }
    function isIndex(key, length) {
        var limit = length === undefined ? MAX_SAFE : length, type = typeof key;
        if (type === "number") { return key > -1 && key % 1 === 0 && key < limit; }
        return type === "string" && INDEX.test(key) && Number(key) < limit;
    }
    function isPlainObject(value) {
        if (!isObjectLike(value) || tagOf(value) !== "[object Object]") { return false; }
        var proto = getProto(value);
        return proto === null || proto === ObjectProto;
    }
    function putOwn(object, key, value) {
        if (key === "__proto__") { env.defineProp(object, key, { value: value, writable: true, enumerable: true, configurable: true }); }
        else { object[key] = value; }
    }
    function keyOf(value) {
        if (typeof value === "string" || typeof value === "symbol") { return value; }
        var text = String(value);
        return (text === "0" && 1 / value === -Infinity) ? "-0" : text;
    }
    function toNumber(value) {
        if (typeof value === "number") { return value; }
        return typeof value === "symbol" ? NaN : Number(value);
    }
    function toInteger(value) {
        var n = toFinite(value);
        return n < 0 ? Math.ceil(n) : Math.floor(n);
    }
    function toFinite(value) {
        if (!value) { return value === 0 ? value : 0; }
        var n = toNumber(value);
        if (n === Infinity || n === -Infinity) { return n < 0 ? -Number.MAX_VALUE : Number.MAX_VALUE; }
        return n === n ? n : 0;
    }
    function textOf(value) {
        if (typeof value === "string") { return value; }
        if (isArray(value)) { return value.map(function (v) { return v == null ? String(v) : textOf(v); }) + ""; }
        if (typeof value === "symbol") { return value.toString(); }
        var text = value + "";
        return (text === "0" && 1 / value === -Infinity) ? "-0" : text;
    }
    function keys(object) {
        if (object == null) { return []; }
        if (isArrayLike(object)) {
            var out = [], i, n = object.length, extra = typeof object === "string" ? [] : ownKeys(object);
            for (i = 0; i < n; i += 1) { out.push(String(i)); }
            for (i = 0; i < extra.length; i += 1) { if (!isIndex(extra[i], n) && extra[i] !== "length") { out.push(extra[i]); } }
            return out;
        }
        return ownKeys(Object(object));
    }
    function values(object) { var k = keys(object), out = [], i; for (i = 0; i < k.length; i += 1) { out.push(object[k[i]]); } return out; }
    function entries(object) {
        if (object instanceof env.MapCtor) { return Array.from(object.entries()); }
        if (object instanceof env.SetCtor) { return Array.from(object.values(), function (v) { return [v, v]; }); }
        var k = keys(object), out = [], i; for (i = 0; i < k.length; i += 1) { out.push([k[i], object[k[i]]]); } return out;
    }
    function iterate(collection, fn) {
        if (collection == null) { return; }
        var i, k;
        if (isArrayLike(collection)) {
            for (i = 0; i < collection.length; i += 1) { if (fn(collection[i], i, collection) === false) { return; } }
            return;
        }
        k = ownKeys(Object(collection));
        for (i = 0; i < k.length; i += 1) { if (fn(collection[k[i]], k[i], collection) === false) { return; } }
    }
    function flatArgs(args, from) {
        var out = [], i, j;
        for (i = from; i < args.length; i += 1) {
            if (isArray(args[i])) { for (j = 0; j < args[i].length; j += 1) { out.push(args[i][j]); } } else { out.push(args[i]); }
        }
        return out;
    }
    return {
        tagOf: tagOf, isObjectLike: isObjectLike, isIndex: isIndex, isArrayLike: isArrayLike, putOwn: putOwn, keyOf: keyOf,
        toInteger: toInteger, toFinite: toFinite, textOf: textOf, iterate: iterate, flatArgs: flatArgs,
        sameValueZero: function (a, b) { return a === b || (a !== a && b !== b); },
        hasOwn: function (object, key) { return object != null && hasOwnFn.call(object, key); },
        identity: function identity(value) { return value; },
        isNil: function isNil(value) { return value == null; },
        isNumber: function isNumber(value) { return typeof value === "number" || (isObjectLike(value) && tagOf(value) === "[object Number]"); },
        isString: function isString(value) { return typeof value === "string" || (isObjectLike(value) && !isArray(value) && tagOf(value) === "[object String]"); },
        isPlainObject: isPlainObject, isObject: isObject, isArray: isArray,
        isFunction: function isFunction(value) { return typeof value === "function"; },
        toNumber: toNumber,
        toString: function toString(value) { return value == null ? "" : textOf(value); },
        keys: keys, values: values, entries: entries, toPairs: entries,
        size: function size(collection) {
            if (collection == null) { return 0; }
            if (typeof collection === "string") { return Array.from(collection).length; }
            if (isArrayLike(collection)) { return collection.length; }
            if (collection instanceof env.MapCtor || collection instanceof env.SetCtor) { return collection.size; }
            return ownKeys(Object(collection)).length;
        }
    };
})
