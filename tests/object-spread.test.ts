import { describe, expect, it } from "vitest";
import { prefixLeadingObjectSpreads } from "@/scripts/lib/object-spread";

describe("prefixLeadingObjectSpreads (catalogue worker build)", () => {
  it("prefixes object literals that start with a spread and have more members", () => {
    expect(
      prefixLeadingObjectSpreads("const s={...a,color:c},t={...a,...b},u=f({...p,ref:r,style:{x:1,...s,...m}});"),
    ).toBe("const s={...null,...a,color:c},t={...null,...a,...b},u=f({...null,...p,ref:r,style:{x:1,...s,...m}});");
  });

  it("rewrites nested literals inside a rewritten one", () => {
    expect(prefixLeadingObjectSpreads("x={...a,s:{...b,c:1}};")).toBe("x={...null,...a,s:{...null,...b,c:1}};");
  });

  it("leaves lone spreads, literals that start with a property, patterns, strings, templates and regexes alone", () => {
    const untouched = [
      "x={...a};",
      "x={a:1,...b,...c};",
      "const{...rest}=o;",
      "const{a,...rest}=o;",
      "f=({...p})=>p;",
      'x="{...a,b}";',
      "x=`{...a,b}${y}`;",
      "x=/{...a,b}/;",
      "x=[...a,b];",
      "f(...a,b);",
    ];
    for (const code of untouched) expect(prefixLeadingObjectSpreads(code), code).toBe(code);
  });
});
