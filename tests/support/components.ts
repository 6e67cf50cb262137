// The shared components the component tests (API and dashboard) save, and the template that imports one.

/** A footer of two files: its default export shows `text`; with `address`, it also exports `Address`. */
export const footer = (text: string, address = true) => ({
  "index.tsx": `import { Text } from "@react-email/components";
import { Legal } from "./legal";
${address ? "\nexport function Address({ address }: { address: string }) {\n  return <Text>{address}</Text>;\n}\n" : ""}
export default function Footer() {
  return <Legal text="${text}" />;
}
`,
  "legal.tsx": `export function Legal({ text }: { text: string }) {
  return <small>{text}</small>;
}
`,
});

/** A receipt importing the footer and its `Address`. */
export const RECEIPT = {
  "email.tsx": `import { Html, Body } from "@react-email/components";
import Footer, { Address } from "@components/footer";

export default function Receipt({ name = "Ada" }: { name?: string }) {
  return (
    <Html>
      <Body>
        <p>Thanks, {name}</p>
        <Address address="1 Main St" />
        <Footer />
      </Body>
    </Html>
  );
}
`,
};
