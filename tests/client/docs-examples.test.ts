import type { CLIENT_METHODS } from "letterpress";
import { describe, expect, it } from "vitest";
import { clientExample } from "@/app/docs/examples";
import { API_OPERATIONS } from "@/lib/api/contract";
import { typeErrors } from "../support/typescript";

const example = (operationId: string, path: string) => clientExample(operationId as keyof typeof CLIENT_METHODS, path);

describe("the TypeScript examples of /docs", () => {
  it("call the client's method of every operation, with arguments it takes", () => {
    const files = Object.fromEntries(
      API_OPERATIONS.map(({ operationId, path }) => [
        `${operationId}.ts`,
        `import { Letterpress } from "letterpress";\nconst lp = new Letterpress();\n${example(operationId, path)}\nexport {};\n`,
      ]),
    );
    expect(typeErrors("tests/client/docs", files)).toEqual(
      Object.fromEntries(Object.keys(files).map((name) => [name, []])),
    );
  });

  it("write path parameters and bodies as the method takes them", () => {
    expect(example("getTemplateVersion", "/templates/{id}/versions/{n}")).toBe(
      'await lp.templates.getVersion("<template id>", 1);',
    );
    expect(example("cancelEmail", "/emails/{id}/cancel")).toBe('await lp.emails.cancel("<email id>");');
    expect(example("sendEmail", "/send")).toBe(`await lp.send({
  "template_id": "<template id>",
  "to": "ada@example.com",
  "subject": "Welcome aboard",
  "variables": { "userName": "Ada" }
});`);
  });
});
