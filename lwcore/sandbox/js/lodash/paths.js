/*
 * `_`, group "paths": deep paths and get / set / has / unset / update / toPath.
 * A path is a list of keys or a string: "a.b", "a[0].b", "a['x.y']", "a[\"b\"]"; a string that
 * is itself a key of the object wins over its reading as a path. set / unset refuse to walk
 * through `__proto__`, `constructor` or `prototype` and do nothing then, as lodash does.
 */
(function (env) {
    "use strict";
    var lib = env.lodash, isArray = env.isArray, keyOf = lib.keyOf, textOf = lib.textOf, putOwn = lib.putOwn, isIndex = lib.isIndex;
    var isObject = lib.isObject, hasOwnFn = env.hasOwnFn, PLAIN = /^\w*$/, DEEP = /\.|\[(?:[^[\]]*|(["'])(?:(?!\1)[^\\]|\\.)*?\1)\]/;
    var UNSAFE = env.lookup(["__proto__", "constructor", "prototype"]), parsePath = env.need("path").parse;

    function isWholeKey(value, object) {
        if (isArray(value)) { return false; }
        var type = typeof value;
        if (type === "number" || type === "symbol" || type === "boolean" || value == null) { return true; }
        return PLAIN.test(value) || !DEEP.test(value) || (object != null && value in Object(object));
    }
    function castPath(value, object) {
        if (isArray(value)) { return value.map(keyOf); }
        return isWholeKey(value, object) ? [keyOf(value)] : parsePath(value == null ? "" : textOf(value));
    }
    function baseGet(object, path) {
        var i = 0, n = path.length;
        while (object != null && i < n) { object = object[path[i]]; i += 1; }
        return (i && i === n) ? object : undefined;
    }
    function get(object, path, defaultValue) {
        var result = object == null ? undefined : baseGet(object, castPath(path, object));
        return result === undefined ? defaultValue : result;
    }
    function hasIn(object, path) {
        var i, node = object;
        for (i = 0; i < path.length; i += 1) {
            if (node == null || !(path[i] in Object(node))) { return false; }
            node = node[path[i]];
        }
        return path.length > 0;
    }
    function set(object, path, value) {
        if (!isObject(object)) { return object; }
        var keys = castPath(path, object), i, n = keys.length, node = object, key, next;
        for (i = 0; node != null && i < n; i += 1) {
            key = keys[i];
            if (UNSAFE[key] === true) { return object; }
            if (i === n - 1) { putOwn(node, key, value); break; }
            next = node[key];
            if (!isObject(next)) { next = isIndex(keys[i + 1]) ? [] : {}; putOwn(node, key, next); }
            node = next;
        }
        return object;
    }
    function unset(object, path) {
        if (object == null) { return true; }
        var keys = castPath(path, object), i;
        for (i = 0; i < keys.length; i += 1) {
            if (keys[i] === "__proto__" || (keys[i] === "constructor" && i + 1 < keys.length)) { return false; }
        }
        var parent = keys.length < 2 ? object : baseGet(object, keys.slice(0, -1));
        return parent == null ? true : delete parent[keys[keys.length - 1]];
    }
    return {
        castPath: castPath, baseGet: baseGet, hasIn: hasIn, get: get, set: set, unset: unset,
        toPath: function toPath(value) {
            if (isArray(value)) { return value.map(keyOf); }
            return typeof value === "symbol" ? [value] : parsePath(value == null ? "" : textOf(value));
        },
        has: function has(object, path) {
            if (object == null) { return false; }
            var keys = castPath(path, object), i, node = object;
            if (keys.length === 0) { return false; }
            for (i = 0; i < keys.length; i += 1) {
                if (node == null || !hasOwnFn.call(Object(node), keys[i])) { return false; }
                node = node[keys[i]];
            }
            return true;
        },
        update: function update(object, path, updater) { return set(object, path, updater(get(object, path))); }
    };
})
