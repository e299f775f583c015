/*
 * Path text to keys, as lodash reads it: "a.b[0]", "a['x.y']", "a[\"b\"]", ".a" (a first empty
 * key), "a..b" (an empty key between). Shared by the variable bridge and `_`.
 *
 * Written without a method of String or Array: it is compiled on first use, possibly after the
 * script changed their prototypes (string indexing and defineProperty reach neither).
 */
(function (env) {
    "use strict";
    function push(list, value) { env.defineProp(list, list.length, { value: value, writable: true, enumerable: true, configurable: true }); }
    function afterDot(text, i, out) {
        if (i < text.length && text[i] === ".") { i += 1; if (i === text.length) { push(out, ""); } }
        return i;
    }
    function parsePath(text) {
        var out = [], i = 0, n = text.length, segment = "", ch, quote, inner, close;
        if (n > 0 && text[0] === ".") { push(out, ""); i = 1; }
        while (i < n) {
            ch = text[i];
            if (ch === ".") {
                push(out, segment); segment = ""; i += 1;
                if (i === n) { push(out, ""); }
                continue;
            }
            if (ch === "[") {
                quote = i + 1 < n ? text[i + 1] : "";
                inner = "";
                if (quote === "\"" || quote === "'") {
                    close = i + 2;
                    while (close < n && text[close] !== quote) {
                        if (text[close] === "\\" && close + 1 < n) { close += 1; }
                        inner += text[close]; close += 1;
                    }
                    close = close + 1 < n && text[close + 1] === "]" ? close + 1 : -1;
                } else {
                    close = i + 1;
                    while (close < n && text[close] !== "]") { inner += text[close]; close += 1; }
                    close = close < n ? close : -1;
                }
                if (close !== -1) {
                    if (segment !== "") { push(out, segment); }
                    segment = ""; push(out, inner);
                    i = afterDot(text, close + 1, out);
                    continue;
                }
            }
            segment += ch; i += 1;
        }
        if (segment !== "") { push(out, segment); }
        return out;
    }
    return { parse: parsePath };
})
