import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { VariablesEditor, type VariableField } from "@/app/dashboard/library/[id]/variables-editor";

function markup(fields: VariableField[], errors: Record<string, string> = {}): string {
  return renderToStaticMarkup(
    <VariablesEditor fields={fields} drafts={{ userName: "Ada", beta: true }} errors={errors} onChange={() => {}} />,
  );
}

const NAME_LABEL =
  '<label class="label" for="var-userName"><span class="row" style="gap:6px"><span class="var-name">userName</span>' +
  '<span class="var-type">string · required</span></span></label>';

describe("the template page's variables panel", () => {
  it("shows a variable's description on a line under its name, before the input, and the input refers to it", () => {
    expect(
      markup([{ name: "userName", type: "string", required: true, description: "The greeting's first name" }]),
    ).toBe(
      '<div class="var-list"><div class="field">' +
        NAME_LABEL +
        '<span id="var-userName-hint" class="hint">The greeting&#x27;s first name</span>' +
        '<input id="var-userName" class="input" type="text" aria-describedby="var-userName-hint" value="Ada"/>' +
        "</div></div>",
    );
  });

  it("describes a checkbox too, with its error after the description", () => {
    expect(
      markup([{ name: "beta", type: "boolean", required: false, description: "Mentions the beta programme" }], {
        beta: "must be a boolean",
      }),
    ).toBe(
      '<div class="var-list"><div class="field"><label class="checkbox" for="var-beta">' +
        '<input id="var-beta" type="checkbox" aria-describedby="var-beta-error var-beta-hint" checked=""/>' +
        '<span class="row" style="gap:6px"><span class="var-name">beta</span><span class="var-type">boolean</span></span>' +
        "</label>" +
        '<span id="var-beta-hint" class="hint">Mentions the beta programme</span>' +
        '<span id="var-beta-error" class="field-error">must be a boolean</span>' +
        "</div></div>",
    );
  });

  it("adds no line for a variable without a description", () => {
    expect(markup([{ name: "userName", type: "string", required: true }])).toBe(
      '<div class="var-list"><div class="field">' +
        NAME_LABEL +
        '<input id="var-userName" class="input" type="text" value="Ada"/>' +
        "</div></div>",
    );
  });
});
