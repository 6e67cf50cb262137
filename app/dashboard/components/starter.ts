/** A new component's file: a footer, the component templates most often share. */
export const STARTER_COMPONENT = `import { Hr, Link, Section, Text } from "@react-email/components";

type Props = {
  company?: string;
  unsubscribeUrl?: string;
};

// In a template: import Footer from "@components/<its name>"; then <Footer unsubscribeUrl={unsubscribeUrl} />
export default function Footer({ company = "Acme Inc.", unsubscribeUrl }: Props) {
  return (
    <Section style={{ marginTop: "32px" }}>
      <Hr style={{ borderColor: "#e4e4e7" }} />
      <Text style={{ fontSize: "12px", color: "#71717a" }}>
        {company}
        {unsubscribeUrl && (
          <>
            {" · "}
            <Link href={unsubscribeUrl} style={{ color: "#71717a" }}>
              Unsubscribe
            </Link>
          </>
        )}
      </Text>
    </Section>
  );
}
`;
