export const STARTER_TEMPLATE = `import { Body, Button, Container, Head, Heading, Hr, Html, Preview, Section, Text } from "@react-email/components";

type Props = {
  name?: string;
  actionUrl?: string;
};

export default function HelloEmail({ name = "there", actionUrl = "https://example.com" }: Props) {
  return (
    <Html lang="en">
      <Head />
      <Preview>Welcome aboard, {name}!</Preview>
      <Body style={{ backgroundColor: "#f4f4f5", fontFamily: "Helvetica, Arial, sans-serif", margin: 0 }}>
        <Container style={{ backgroundColor: "#ffffff", margin: "40px auto", padding: "32px", borderRadius: "10px", maxWidth: "560px" }}>
          <Heading style={{ fontSize: "24px", margin: "0 0 16px", color: "#18181b" }}>Hello, {name}</Heading>
          <Text style={{ fontSize: "16px", lineHeight: "26px", color: "#3f3f46" }}>
            Thanks for joining. Edit this template in the editor: the preview updates as you type.
          </Text>
          <Section style={{ margin: "28px 0" }}>
            <Button
              href={actionUrl}
              style={{ backgroundColor: "#3340a8", color: "#ffffff", padding: "12px 22px", borderRadius: "6px", fontWeight: 600 }}
            >
              Get started
            </Button>
          </Section>
          <Hr style={{ borderColor: "#e4e4e7" }} />
          <Text style={{ fontSize: "12px", color: "#71717a" }}>You received this email because you signed up.</Text>
        </Container>
      </Body>
    </Html>
  );
}

HelloEmail.PreviewProps = { name: "Ada", actionUrl: "https://example.com/start" };
`;
