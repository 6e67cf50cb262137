import * as React from "react";
import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Section,
  Text,
} from "@react-email/components";

export type NewsletterArticle = {
  /** Headline of the article. */
  title: string;
  /** One or two sentence teaser. */
  summary: string;
  /** Absolute URL of the full article. */
  url: string;
  /** Optional cover image (absolute URL, ideally 1072px wide). */
  imageUrl?: string;
  /** Alt text for the cover image. Falls back to the title. */
  imageAlt?: string;
};

export type NewsletterProps = {
  /** Articles featured in this issue. Required. */
  articles?: NewsletterArticle[];
  /** Unsubscribe URL: the footer's link, shown only when given (mail sent to many people should have one). */
  unsubscribeUrl?: string;
  /** Publication or company name. */
  brandName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Headline of this issue. */
  issueTitle?: string;
  /** Issue number. Hidden when 0. */
  issueNumber?: number;
  /** Pre-formatted publication date, e.g. "March 2025". Hidden when empty. */
  issueDate?: string;
  /** Short introduction shown above the articles. */
  intro?: string;
  /** Label of the closing call-to-action button. */
  ctaLabel?: string;
  /** Target of the closing call-to-action button. */
  ctaUrl?: string;
  /** Optional "view in browser" URL. Hidden when empty. */
  webVersionUrl?: string;
  /** Postal address shown in the footer (required by CAN-SPAM). */
  companyAddress?: string;
};

export default function Newsletter({
  articles = [],
  unsubscribeUrl = "",
  brandName = "Acme",
  logoUrl = "",
  issueTitle = "What's new this month",
  issueNumber = 0,
  issueDate = "",
  intro = "Here's a round-up of what we've been working on, and a few things we think you'll enjoy.",
  ctaLabel = "Read more on our blog",
  ctaUrl = "https://example.com/blog",
  webVersionUrl = "",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: NewsletterProps) {
  const issueMeta = [issueNumber ? `Issue #${issueNumber}` : "", issueDate].filter(Boolean).join(" · ");

  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{`${brandName}: ${issueTitle}`}</Preview>
      <Body style={main}>
        <Container style={container}>
          <Section style={header}>
            {logoUrl ? (
              <Img src={logoUrl} height="32" alt={brandName} style={logo} />
            ) : (
              <Text style={wordmark}>{brandName}</Text>
            )}
            {webVersionUrl ? (
              <Text style={webVersion}>
                <Link href={webVersionUrl} style={mutedLink}>
                  View in browser
                </Link>
              </Text>
            ) : null}
          </Section>

          <Section style={card}>
            {issueMeta ? <Text style={eyebrow}>{issueMeta}</Text> : null}
            <Heading as="h1" style={h1}>
              {issueTitle}
            </Heading>
            <Text style={paragraph}>{intro}</Text>

            {articles.map((article, index) => (
              <Section key={`${article.url}-${index}`} style={articleSection}>
                <Hr style={hr} />
                {article.imageUrl ? (
                  <Link href={article.url}>
                    <Img
                      src={article.imageUrl}
                      alt={article.imageAlt || article.title}
                      width="536"
                      style={articleImage}
                    />
                  </Link>
                ) : null}
                <Heading as="h2" style={h2}>
                  <Link href={article.url} style={headingLink}>
                    {article.title}
                  </Link>
                </Heading>
                <Text style={paragraph}>{article.summary}</Text>
                <Text style={readMore}>
                  <Link href={article.url} style={link} aria-label={`Continue reading: ${article.title}`}>
                    Continue reading →
                  </Link>
                </Text>
              </Section>
            ))}

            <Hr style={hr} />
            <Section style={buttonSection}>
              <Button href={ctaUrl} style={button}>
                {ctaLabel}
              </Button>
            </Section>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>
              {`You're receiving this newsletter because you subscribed to updates from ${brandName}.`}
              {unsubscribeUrl && (
                <>
                  {" "}
                  <Link href={unsubscribeUrl} style={mutedLink}>
                    Unsubscribe
                  </Link>
                </>
              )}
            </Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

Newsletter.PreviewProps = {
  articles: [
    {
      title: "Introducing scheduled sends",
      summary: "Queue any email up to 30 days ahead and we'll deliver it in your recipient's time zone.",
      url: "https://acme.example/blog/scheduled-sends",
      imageUrl: "https://placehold.co/1072x536/png?text=Scheduled+sends",
      imageAlt: "A calendar with a paper plane flying out of it",
    },
    {
      title: "How we cut our p99 latency in half",
      summary:
        "A deep dive into connection pooling, request hedging and the one config flag we wish we'd found sooner.",
      url: "https://acme.example/blog/p99-latency",
    },
    {
      title: "Customer story: Northwind Traders",
      summary: "How a twelve-person team replaced three tools and now ships transactional email in an afternoon.",
      url: "https://acme.example/customers/northwind",
    },
  ],
  unsubscribeUrl: "https://acme.example/unsubscribe?u=42",
  brandName: "Acme",
  logoUrl: "",
  issueTitle: "Scheduled sends are here",
  issueNumber: 42,
  issueDate: "March 2025",
  intro:
    "This month we shipped one of our most-requested features, went deep on performance, and sat down with one of our favourite customers.",
  ctaLabel: "Read more on our blog",
  ctaUrl: "https://acme.example/blog",
  webVersionUrl: "https://acme.example/newsletter/42",
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies NewsletterProps;

const fontFamily = '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';

const main: React.CSSProperties = {
  backgroundColor: "#f4f4f5",
  fontFamily,
  margin: "0",
  padding: "0",
};

const container: React.CSSProperties = {
  width: "100%",
  maxWidth: "600px",
  margin: "0 auto",
  padding: "32px 12px",
};

const header: React.CSSProperties = { padding: "0 8px 20px" };

const logo: React.CSSProperties = { display: "block", border: "0" };

const wordmark: React.CSSProperties = {
  margin: "0",
  fontSize: "20px",
  fontWeight: 700,
  letterSpacing: "-0.02em",
  color: "#111827",
};

const webVersion: React.CSSProperties = {
  margin: "4px 0 0",
  fontSize: "12px",
  lineHeight: "18px",
};

const card: React.CSSProperties = {
  backgroundColor: "#ffffff",
  border: "1px solid #e4e4e7",
  borderRadius: "12px",
  padding: "32px 28px",
};

const eyebrow: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "18px",
  fontWeight: 600,
  textTransform: "uppercase",
  letterSpacing: "0.08em",
  color: "#52525b",
};

const h1: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "28px",
  lineHeight: "36px",
  fontWeight: 700,
  color: "#111827",
};

const h2: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "20px",
  lineHeight: "28px",
  fontWeight: 700,
};

const headingLink: React.CSSProperties = {
  color: "#111827",
  textDecoration: "none",
};

const paragraph: React.CSSProperties = {
  margin: "0 0 12px",
  fontSize: "16px",
  lineHeight: "26px",
  color: "#374151",
};

const articleSection: React.CSSProperties = { margin: "0" };

const articleImage: React.CSSProperties = {
  display: "block",
  width: "100%",
  maxWidth: "536px",
  height: "auto",
  border: "0",
  borderRadius: "8px",
  marginBottom: "16px",
};

const readMore: React.CSSProperties = {
  margin: "0",
  fontSize: "15px",
  lineHeight: "24px",
  fontWeight: 600,
};

const buttonSection: React.CSSProperties = {
  margin: "8px 0 0",
  textAlign: "center",
};

const button: React.CSSProperties = {
  backgroundColor: "#111827",
  borderRadius: "8px",
  color: "#ffffff",
  fontSize: "16px",
  fontWeight: 600,
  textDecoration: "none",
  textAlign: "center",
  display: "inline-block",
  padding: "12px 24px",
};

const link: React.CSSProperties = {
  color: "#1d4ed8",
  textDecoration: "underline",
};

const mutedLink: React.CSSProperties = {
  color: "#52525b",
  textDecoration: "underline",
};

const hr: React.CSSProperties = {
  borderColor: "#e4e4e7",
  margin: "24px 0",
};

const footer: React.CSSProperties = { padding: "24px 8px 0" };

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
