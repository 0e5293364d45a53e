// Our stand-in for the `classnames` package Shudan imports: joins the
// truthy class names given as strings, arrays or {name: flag} objects.
export default function classnames(...args) {
  const out = [];
  for (const a of args) {
    if (!a) continue;
    if (typeof a === "string" || typeof a === "number") out.push(String(a));
    else if (Array.isArray(a)) {
      const inner = classnames(...a);
      if (inner) out.push(inner);
    } else if (typeof a === "object") {
      for (const [k, v] of Object.entries(a)) if (v) out.push(k);
    }
  }
  return out.join(" ");
}
