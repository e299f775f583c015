/*
 * `_`: a function (the chain) wrapped in a Proxy that compiles a group of functions the first
 * time one of them is asked for, so a run pays only for the groups its script uses. Calling a
 * lodash function this sandbox does not provide throws "`_.name` is not available in this
 * sandbox". `_(value)` chains implicitly (lodash's split between functions that keep the
 * chain and those that return a plain value, measured with lodash 4.17.21); `_.chain(value)`
 * chains explicitly until `.value()`.
 *
 * The set was chosen by measuring what scripts and cards use (public repositories: MagVarUpdate,
 * StageDog's helper-script template and ten forks of it, the reference Loreweaver; 2,055
 * distinct files). Script files using each function: get 42, cloneDeep 37, set 33, isEqual 15,
 * has 14, clamp 14, debounce 11 (timers, meaningless here), isEmpty 11, unset 7, remove 6, assign,
 * merge, isObject, isPlainObject, isArray, update 5 each, escape and omit 4, the rest 1-3; card
 * content (world books, prompts): set 14, clamp 13, get 9, has 8, pickBy 5, update and unset 4.
 * Details in ../../README.md.
 */
(function (env) {
    "use strict";
    var lib = env.createObject(null), own = env.own, apply = env.apply, reflectGet = Reflect.get, i;
    env.lodash = lib;
    var GROUPS = {
        base: "isNil isNumber isString isPlainObject isObject isArray isFunction toNumber toString keys values entries toPairs size identity",
        paths: "get set has unset update toPath",
        objects: "cloneDeep merge isEqual isEmpty pick pickBy omit escape",
        collections: "forEach each map filter find findIndex some every includes uniq flatten sortBy groupBy sum sumBy",
        numbers: "clamp inRange random sample shuffle range round times"
    };
    var NEEDS = { base: [], paths: ["base"], objects: ["base", "paths"], collections: ["base", "paths", "objects"], numbers: ["base"] };
    var CHAINABLE = env.lookup("set unset update merge shuffle range keys values entries toPairs map filter uniq flatten pick pickBy omit sortBy groupBy toPath".split(" "));
    /* The rest of lodash 4.17.21's functions: calling one names it instead of failing obscurely. */
    var ABSENT = " " +
        "add after ary assign assignIn assignInWith assignWith at attempt before bind bindAll bindKey " +
        "camelCase capitalize castArray ceil chunk clone cloneDeepWith cloneWith compact concat cond " +
        "conforms conformsTo constant countBy create curry curryRight debounce deburr defaultTo defaults " +
        "defaultsDeep defer delay difference differenceBy differenceWith divide drop dropRight " +
        "dropRightWhile dropWhile eachRight endsWith entriesIn eq escapeRegExp extend extendWith fill " +
        "findKey findLast findLastIndex findLastKey first flatMap flatMapDeep flatMapDepth flattenDeep " +
        "flattenDepth flip floor flow flowRight forEachRight forIn forInRight forOwn forOwnRight fromPairs " +
        "functions functionsIn gt gte hasIn head indexOf initial intersection intersectionBy " +
        "intersectionWith invert invertBy invoke invokeMap isArguments isArrayBuffer isArrayLike " +
        "isArrayLikeObject isBoolean isBuffer isDate isElement isEqualWith isError isFinite isInteger " +
        "isLength isMap isMatch isMatchWith isNaN isNative isNull isObjectLike isRegExp isSafeInteger isSet " +
        "isSymbol isTypedArray isUndefined isWeakMap isWeakSet iteratee join kebabCase keyBy keysIn last " +
        "lastIndexOf lowerCase lowerFirst lt lte mapKeys mapValues matches matchesProperty max maxBy mean " +
        "meanBy memoize mergeWith method methodOf min minBy mixin multiply negate noConflict noop now nth " +
        "nthArg omitBy once orderBy over overArgs overEvery overSome pad padEnd padStart parseInt partial " +
        "partialRight partition property propertyOf pull pullAll pullAllBy pullAllWith pullAt rangeRight " +
        "rearg reduce reduceRight reject remove repeat replace rest result reverse runInContext sampleSize " +
        "setWith slice snakeCase sortedIndex sortedIndexBy sortedIndexOf sortedLastIndex sortedLastIndexBy " +
        "sortedLastIndexOf sortedUniq sortedUniqBy split spread startCase startsWith stubArray stubFalse " +
        "stubObject stubString stubTrue subtract tail take takeRight takeRightWhile takeWhile tap template " +
        "throttle thru toArray toFinite toInteger toLength toLower toPairsIn toPlainObject toSafeInteger " +
        "toUpper transform trim trimEnd trimStart truncate unary unescape union unionBy unionWith uniqBy " +
        "uniqWith uniqueId unzip unzipWith updateWith upperCase upperFirst valuesIn without words wrap xor " +
        "xorBy xorWith zip zipObject zipObjectDeep zipWith ";
    function absent(name) { return apply(env.stringIndexOf, ABSENT, [" " + name + " "]) !== -1; }
    var groupOf = env.createObject(null), names = env.ownKeys(GROUPS);
    for (i = 0; i < names.length; i += 1) {
        GROUPS[names[i]].split(" ").forEach(function (name) { groupOf[name] = this; }, names[i]);
    }
    var loaded = env.createObject(null);
    function group(name) {
        if (loaded[name] !== true) {
            for (var k = 0; k < NEEDS[name].length; k += 1) { group(NEEDS[name][k]); }
            var made = env.need("lodash/" + name), keys = env.ownKeys(made);
            for (k = 0; k < keys.length; k += 1) { lib[keys[k]] = made[keys[k]]; }
            loaded[name] = true;
        }
        return lib;
    }
    function refusal(name) {
        return function () { throw new env.TypeErrorCtor("`_." + name + "` is not available in this sandbox"); };
    }
    function Wrapper(value, explicit) { this.__wrapped__ = value; this.__chain__ = explicit; }
    var methods = env.createObject(null);
    var wrapperBase = {
        value: function value() { return this.__wrapped__; },
        chain: function chain() { return new Wrapper(this.__wrapped__, true); },
        toString: function toString() { return underscore.toString(this.__wrapped__); }
    };
    wrapperBase.valueOf = wrapperBase.value;
    wrapperBase.toJSON = wrapperBase.value;
    function method(name) {
        if (methods[name] === undefined) {
            methods[name] = absent(name) ? refusal(name) : function () {
                var args = [this.__wrapped__];
                for (var k = 0; k < arguments.length; k += 1) { args.push(arguments[k]); }
                var result = apply(underscore[name], undefined, args);
                return (this.__chain__ || CHAINABLE[name] === true) ? new Wrapper(result, this.__chain__) : result;
            };
        }
        return methods[name];
    }
    Wrapper.prototype = new env.ProxyCtor(wrapperBase, {
        get: function (target, key, receiver) {
            if (typeof key === "string" && !own(target, key) && (groupOf[key] !== undefined || absent(key))) { return method(key); }
            return reflectGet(target, key, receiver);
        }
    });
    function _(value) { return value instanceof Wrapper ? value : new Wrapper(value, false); }
    _.prototype = Wrapper.prototype;
    _.chain = function chain(value) { return new Wrapper(value instanceof Wrapper ? value.__wrapped__ : value, true); };
    var underscore = new env.ProxyCtor(_, {
        get: function (target, key, receiver) {
            if (typeof key === "string" && !own(target, key)) {
                var name = groupOf[key];
                if (name !== undefined) {
                    var made = group(name), list = GROUPS[name].split(" ");
                    for (var k = 0; k < list.length; k += 1) {
                        if (!own(target, list[k])) { env.defineProp(target, list[k], { value: made[list[k]], writable: true, enumerable: true, configurable: true }); }
                    }
                } else if (absent(key)) {
                    return refusal(key);
                }
            }
            return reflectGet(target, key, receiver);
        }
    });
    return { globals: { _: underscore }, group: group };
})
