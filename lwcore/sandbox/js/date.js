/*
 * Date, the same on every host: `Date.now()`, `new Date()` and `Date()` read the game clock the
 * caller passed in, and the sandbox's only time zone is UTC (QuickJS would otherwise use the
 * host's TZ for every local-time method and for a date text without a zone). Compiled the
 * first time a script touches `Date`; until then no Date object can exist in the sandbox.
 */
(function (env) {
    "use strict";
    var apply = env.apply, RealDate = env.RealDate, DateProto = RealDate.prototype, realUTC = RealDate.UTC, realParse = RealDate.parse;
    var getTime = DateProto.getTime, hostOffset = DateProto.getTimezoneOffset, clock = env.config.clock, exec = env.regexpExec;
    var ISO_DATE_ONLY = /^[+-]?\d{4,6}(?:-\d\d(?:-\d\d)?)?$/;
    var HAS_ZONE = /\dZ\b|\d[+-]\d\d:?\d\d\b|\b(?:GMT|UTC|UT|[ECMP][SD]T)\b/i;
    var DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    var UNITS = ["FullYear", "Month", "Date", "Day", "Hours", "Minutes", "Seconds", "Milliseconds"], i;

    function parseAsUtc(text) {
        var s = String(text), t = realParse(s);
        if (t !== t || apply(exec, ISO_DATE_ONLY, [s]) !== null || apply(exec, HAS_ZONE, [s]) !== null) { return t; }
        return t - apply(hostOffset, new RealDate(t), []) * 60000;
    }
    function pad(n, width) { var s = "" + (n < 0 ? -n : n); while (s.length < width) { s = "0" + s; } return (n < 0 ? "-" : "") + s; }
    function fields(date) {
        var t = apply(getTime, date, []);
        if (t !== t) { return null; }
        var d = new RealDate(t);
        return [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCDay(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()];
    }
    function day(f) { return DAYS[f[3]] + " " + MONTHS[f[1]] + " " + pad(f[2], 2) + " " + pad(f[0], 4); }
    function time(f) { return pad(f[4], 2) + ":" + pad(f[5], 2) + ":" + pad(f[6], 2) + " GMT+0000"; }
    function localDay(f) { return pad(f[1] + 1, 2) + "/" + pad(f[2], 2) + "/" + pad(f[0], 4); }
    function localTime(f) { return pad(f[4] % 12 === 0 ? 12 : f[4] % 12, 2) + ":" + pad(f[5], 2) + ":" + pad(f[6], 2) + (f[4] < 12 ? " AM" : " PM"); }
    function text(render) { return function () { var f = fields(this); return f === null ? "Invalid Date" : render(f); }; }
    var methods = {
        toString: text(function (f) { return day(f) + " " + time(f); }),
        toDateString: text(day),
        toTimeString: text(time),
        toLocaleString: text(function (f) { return localDay(f) + ", " + localTime(f); }),
        toLocaleDateString: text(localDay),
        toLocaleTimeString: text(localTime),
        getTimezoneOffset: function getTimezoneOffset() { var t = apply(getTime, this, []); return t === t ? 0 : NaN; },
        getYear: function getYear() { return this.getUTCFullYear() - 1900; }
    };
    for (i = 0; i < UNITS.length; i += 1) {
        methods["get" + UNITS[i]] = DateProto["getUTC" + UNITS[i]];
        if (UNITS[i] !== "Day") { methods["set" + UNITS[i]] = DateProto["setUTC" + UNITS[i]]; }
    }
    var clockText = methods.toString;

    function Date(year, month, day, hours, minutes, seconds, ms) {
        var n = arguments.length, t;
        if (new.target === undefined) { return apply(clockText, new RealDate(clock), []); }
        if (n === 0) { t = clock; }
        else if (n === 1) { t = typeof year === "string" ? parseAsUtc(year) : year; }
        else { t = realUTC(year, month, n > 2 ? day : 1, n > 3 ? hours : 0, n > 4 ? minutes : 0, n > 5 ? seconds : 0, n > 6 ? ms : 0); }
        return env.construct(RealDate, [t], new.target);
    }
    Date.prototype = DateProto;
    Date.now = function now() { return clock; };
    Date.parse = function parse(value) { return parseAsUtc(value); };
    Date.UTC = realUTC;
    methods.constructor = Date;
    var names = env.ownKeys(methods);
    for (i = 0; i < names.length; i += 1) { env.defineProp(DateProto, names[i], { value: methods[names[i]], writable: true, configurable: true }); }
    return Date;
})
