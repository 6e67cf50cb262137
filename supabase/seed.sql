-- Written by `npm run db:seed-sql` (scripts/db-seed-sql.ts) from emails/: the public catalogue as
-- `npm run db:seed` seeds it (lib/catalogue/data/seed.ts), for Supabase Branching, which runs this file on each
-- preview branch's database after supabase/migrations/ (supabase/config.toml's [db.seed]). Each statement is
-- seed_catalogue_template's upsert by slug, so running the file again changes nothing. Not edited by hand: edit emails/
-- and run the command again.

-- welcome
select public.seed_catalogue_template(
  p_slug => $seed$welcome$seed$,
  p_listing => $seed${"name":"Welcome","description":"A warm onboarding email with three getting-started steps, a dashboard button and links to your docs and support.","price":"0.00","category":"Onboarding","author":"Letterpress","preview_image_url":null}$seed$,
  p_variables => $seed${"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"userName":{"default":"there","description":"Recipient's first name, shown in the heading and the preview text, e.g. Ada.","type":"string","maxLength":200},"productName":{"default":"Acme","description":"Your product or company name, shown in the header when there is no logo, the heading and the copy.","type":"string","maxLength":200},"logoUrl":{"default":"","description":"http(s) URL of your logo, shown 32 px tall in the header; empty to show the product name as text instead.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]},"dashboardUrl":{"default":"https://example.com/dashboard","description":"http(s) URL the \"Go to your dashboard\" button opens.","type":"string","maxLength":2048,"format":"uri"},"docsUrl":{"default":"https://example.com/docs","description":"http(s) URL of your documentation, linked as \"getting-started guide\".","type":"string","maxLength":2048,"format":"uri"},"supportEmail":{"default":"support@example.com","description":"Address users can write to for help, shown as a mailto link, e.g. help@acme.example.","type":"string","maxLength":320},"companyAddress":{"default":"Acme Inc., 123 Market Street, San Francisco, CA 94103","description":"Your postal address, shown in the footer.","type":"string","maxLength":1000}},"additionalProperties":true}$seed$,
  p_code => $seed$import * as React from "react";
import {
  Body,
  Button,
  Column,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Row,
  Section,
  Text,
} from "@react-email/components";
import { createTranslator } from "use-intl/core";
import de from "./_messages/welcome/de.json";
import en from "./_messages/welcome/en.json";
import es from "./_messages/welcome/es.json";
import fr from "./_messages/welcome/fr.json";
import ptBR from "./_messages/welcome/pt-BR.json";

export type WelcomeProps = {
  /** Language of the email: en, fr, de, es or pt-BR (another tag reads as en). */
  locale?: string;
  /** First name of the new user. */
  userName?: string;
  /** Your product or company name, shown in the header and copy. */
  productName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Where the main call-to-action button points. */
  dashboardUrl?: string;
  /** Link to your documentation or getting-started guide. */
  docsUrl?: string;
  /** Address users can reply to for help. */
  supportEmail?: string;
  /** Postal address shown in the footer. */
  companyAddress?: string;
};

// One file of messages per locale, as in React Email's internationalization guide; each has every key of en.json.
// A translator per locale, made once: it keeps each message parsed across renders (parsing the welcome email's again
// took about 0.45 ms a render here), and it holds only these constant messages, never a render's values.
const translate = (locale: string, messages: typeof en) => createTranslator({ locale, messages, timeZone: "UTC" });
const translators = {
  en: translate("en", en),
  fr: translate("fr", fr),
  de: translate("de", de),
  es: translate("es", es),
  "pt-BR": translate("pt-BR", ptBR),
};

const steps = ["profile", "project", "team"] as const;

export default function Welcome({
  locale = "en",
  userName = "there",
  productName = "Acme",
  logoUrl = "",
  dashboardUrl = "https://example.com/dashboard",
  docsUrl = "https://example.com/docs",
  supportEmail = "support@example.com",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: WelcomeProps) {
  const lang = Object.hasOwn(translators, locale) ? (locale as keyof typeof translators) : "en";
  const t = translators[lang];

  return (
    <Html lang={lang} dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{t("preview", { productName, userName })}</Preview>
      <Body style={main}>
        <Container style={container}>
          <Section style={header}>
            {logoUrl ? (
              <Img src={logoUrl} height="32" alt={productName} style={logo} />
            ) : (
              <Text style={wordmark}>{productName}</Text>
            )}
          </Section>

          <Section style={card}>
            <Heading as="h1" style={h1}>
              {t("heading", { productName, userName })}
            </Heading>
            <Text style={paragraph}>{t("intro", { productName })}</Text>

            {steps.map((step, index) => (
              <Row key={step} style={stepRow}>
                <Column style={stepNumberColumn}>
                  <Text style={stepNumber}>{index + 1}</Text>
                </Column>
                <Column>
                  <Text style={stepTitle}>{t(`steps.${step}.title`)}</Text>
                  <Text style={stepBody}>{t(`steps.${step}.body`)}</Text>
                </Column>
              </Row>
            ))}

            <Section style={buttonSection}>
              <Button href={dashboardUrl} style={button}>
                {t("cta")}
              </Button>
            </Section>

            <Text style={paragraph}>
              {t.rich("help", {
                supportEmail,
                docs: (chunks) => (
                  <Link key="docs" href={docsUrl} style={link}>
                    {chunks}
                  </Link>
                ),
                support: (chunks) => (
                  <Link key="support" href={`mailto:${supportEmail}`} style={link}>
                    {chunks}
                  </Link>
                ),
              })}
            </Text>
            <Text style={paragraph}>
              {t("signOff")}
              <br />
              {t("signature", { productName })}
            </Text>
          </Section>

          <Section style={footer}>
            <Hr style={hr} />
            <Text style={footerText}>{t("footer", { productName })}</Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

Welcome.PreviewProps = {
  userName: "Ada",
  productName: "Acme",
  logoUrl: "",
  dashboardUrl: "https://acme.example/dashboard",
  docsUrl: "https://acme.example/docs/getting-started",
  supportEmail: "help@acme.example",
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies WelcomeProps;

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

const card: React.CSSProperties = {
  backgroundColor: "#ffffff",
  border: "1px solid #e4e4e7",
  borderRadius: "12px",
  padding: "32px 28px",
};

const h1: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "24px",
  lineHeight: "32px",
  fontWeight: 700,
  color: "#111827",
};

const paragraph: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "16px",
  lineHeight: "26px",
  color: "#374151",
};

const stepRow: React.CSSProperties = { marginBottom: "12px" };

const stepNumberColumn: React.CSSProperties = {
  width: "40px",
  verticalAlign: "top",
};

const stepNumber: React.CSSProperties = {
  margin: "0",
  width: "28px",
  height: "28px",
  lineHeight: "28px",
  borderRadius: "14px",
  backgroundColor: "#111827",
  color: "#ffffff",
  fontSize: "14px",
  fontWeight: 700,
  textAlign: "center",
};

const stepTitle: React.CSSProperties = {
  margin: "0",
  fontSize: "16px",
  lineHeight: "24px",
  fontWeight: 600,
  color: "#111827",
};

const stepBody: React.CSSProperties = {
  margin: "0 0 4px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const buttonSection: React.CSSProperties = { margin: "24px 0 28px" };

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

const footer: React.CSSProperties = { padding: "0 8px" };

const hr: React.CSSProperties = {
  borderColor: "#e4e4e7",
  margin: "24px 0 16px",
};

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
$seed$
);

-- verify-email
select public.seed_catalogue_template(
  p_slug => $seed$verify-email$seed$,
  p_listing => $seed${"name":"Verify email address","description":"Confirm a new user's email address with a one-click button and an optional typed verification code.","price":"0.00","category":"Authentication","author":"Letterpress","preview_image_url":null}$seed$,
  p_variables => $seed${"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"verifyUrl":{"type":"string","maxLength":2048,"format":"uri","description":"http(s) URL with the one-time token that confirms the address, opened by the button and printed below it for copying."},"userName":{"default":"there","description":"Recipient's first name, used in the greeting (\"Hi Ada,\").","type":"string","maxLength":200},"productName":{"default":"Acme","description":"Your product or company name, shown in the header when there is no logo and throughout the copy.","type":"string","maxLength":200},"logoUrl":{"default":"","description":"http(s) URL of your logo, shown 32 px tall in the header; empty to show the product name as text instead.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]},"verificationCode":{"default":"","description":"Code the user can type instead of clicking, shown large below the button, e.g. 730194; empty to leave it out.","type":"string","maxLength":200},"expiresInHours":{"default":24,"description":"Hours the link stays valid, stated in the copy (\"The link expires in 24 hours\").","type":"number"},"companyAddress":{"default":"Acme Inc., 123 Market Street, San Francisco, CA 94103","description":"Your postal address, shown in the footer.","type":"string","maxLength":1000}},"required":["verifyUrl"],"additionalProperties":true}$seed$,
  p_code => $seed$import * as React from "react";
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

export type VerifyEmailProps = {
  /** Email verification URL containing a one-time token. Required. */
  verifyUrl?: string;
  /** First name of the new user. */
  userName?: string;
  /** Your product or company name. */
  productName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Optional code users can type instead of clicking the link. */
  verificationCode?: string;
  /** How long the link stays valid. */
  expiresInHours?: number;
  /** Postal address shown in the footer. */
  companyAddress?: string;
};

export default function VerifyEmail({
  verifyUrl = "https://example.com/verify-email",
  userName = "there",
  productName = "Acme",
  logoUrl = "",
  verificationCode = "",
  expiresInHours = 24,
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: VerifyEmailProps) {
  const expiry = `${expiresInHours} hour${expiresInHours === 1 ? "" : "s"}`;

  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{`Confirm your email address for ${productName}`}</Preview>
      <Body style={main}>
        <Container style={container}>
          <Section style={header}>
            {logoUrl ? (
              <Img src={logoUrl} height="32" alt={productName} style={logo} />
            ) : (
              <Text style={wordmark}>{productName}</Text>
            )}
          </Section>

          <Section style={card}>
            <Heading as="h1" style={h1}>
              Confirm your email address
            </Heading>
            <Text style={paragraph}>{`Hi ${userName},`}</Text>
            <Text style={paragraph}>
              Thanks for signing up for {productName}. Please confirm that this is your email address so we can keep
              your account secure and send you important updates. The link expires in {expiry}.
            </Text>

            <Section style={buttonSection}>
              <Button href={verifyUrl} style={button}>
                Confirm email address
              </Button>
            </Section>

            {verificationCode ? (
              <>
                <Text style={paragraph}>Or enter this verification code in the app:</Text>
                <Text style={code} aria-label={`Verification code ${verificationCode}`}>
                  {verificationCode}
                </Text>
              </>
            ) : null}

            <Text style={muted}>If the button doesn't work, copy and paste this URL into your browser:</Text>
            <Text style={urlText}>
              <Link href={verifyUrl} style={link}>
                {verifyUrl}
              </Link>
            </Text>

            <Hr style={hr} />
            <Text style={muted}>If you didn't create a {productName} account, you can safely ignore this email.</Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>This is an automated email from {productName}.</Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

VerifyEmail.PreviewProps = {
  verifyUrl: "https://acme.example/verify-email?token=a87ff679a2f3e71d9181",
  userName: "Ada",
  productName: "Acme",
  logoUrl: "",
  verificationCode: "730194",
  expiresInHours: 24,
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies VerifyEmailProps;

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

const card: React.CSSProperties = {
  backgroundColor: "#ffffff",
  border: "1px solid #e4e4e7",
  borderRadius: "12px",
  padding: "32px 28px",
};

const h1: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "24px",
  lineHeight: "32px",
  fontWeight: 700,
  color: "#111827",
};

const paragraph: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "16px",
  lineHeight: "26px",
  color: "#374151",
};

const buttonSection: React.CSSProperties = { margin: "8px 0 24px" };

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

const code: React.CSSProperties = {
  margin: "0 0 24px",
  padding: "12px 16px",
  backgroundColor: "#f4f4f5",
  border: "1px solid #e4e4e7",
  borderRadius: "8px",
  fontFamily: 'SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  fontSize: "28px",
  lineHeight: "36px",
  fontWeight: 700,
  letterSpacing: "0.3em",
  textAlign: "center",
  color: "#111827",
};

const muted: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const urlText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "13px",
  lineHeight: "20px",
  wordBreak: "break-all",
};

const link: React.CSSProperties = {
  color: "#1d4ed8",
  textDecoration: "underline",
};

const hr: React.CSSProperties = {
  borderColor: "#e4e4e7",
  margin: "24px 0 16px",
};

const footer: React.CSSProperties = { padding: "24px 8px 0" };

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
$seed$
);

-- magic-link
select public.seed_catalogue_template(
  p_slug => $seed$magic-link$seed$,
  p_listing => $seed${"name":"Magic link sign-in","description":"Passwordless sign-in email with a single-use link, an optional one-time code and a clear expiry notice.","price":"0.00","category":"Authentication","author":"Letterpress","preview_image_url":null}$seed$,
  p_variables => $seed${"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"loginUrl":{"type":"string","maxLength":2048,"format":"uri","description":"http(s) single-use sign-in URL, opened by the button and printed below it for copying."},"productName":{"default":"Acme","description":"Your product or company name, shown in the header when there is no logo and throughout the copy.","type":"string","maxLength":200},"logoUrl":{"default":"","description":"http(s) URL of your logo, shown 32 px tall in the header; empty to show the product name as text instead.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]},"userEmail":{"default":"","description":"Address the sign-in was requested for, named in the copy, e.g. ada@example.com; empty to leave it out.","type":"string","maxLength":320},"loginCode":{"default":"","description":"One-time code the user can type instead of clicking, shown large below the button, e.g. 482913; empty to leave it out.","type":"string","maxLength":200},"expiresInMinutes":{"default":15,"description":"Minutes the link stays valid, stated in the preview text and the copy.","type":"number"},"companyAddress":{"default":"Acme Inc., 123 Market Street, San Francisco, CA 94103","description":"Your postal address, shown in the footer.","type":"string","maxLength":1000}},"required":["loginUrl"],"additionalProperties":true}$seed$,
  p_code => $seed$import * as React from "react";
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

export type MagicLinkProps = {
  /** One-time sign-in URL. Required. */
  loginUrl?: string;
  /** Your product or company name. */
  productName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Email address the link was requested for (optional, shown for clarity). */
  userEmail?: string;
  /** Optional short code users can type instead of clicking the link. */
  loginCode?: string;
  /** How long the link stays valid. */
  expiresInMinutes?: number;
  /** Postal address shown in the footer. */
  companyAddress?: string;
};

export default function MagicLink({
  loginUrl = "https://example.com/auth/magic-link",
  productName = "Acme",
  logoUrl = "",
  userEmail = "",
  loginCode = "",
  expiresInMinutes = 15,
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: MagicLinkProps) {
  const expiry = `${expiresInMinutes} minute${expiresInMinutes === 1 ? "" : "s"}`;

  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{`Your sign-in link for ${productName} (expires in ${expiry})`}</Preview>
      <Body style={main}>
        <Container style={container}>
          <Section style={header}>
            {logoUrl ? (
              <Img src={logoUrl} height="32" alt={productName} style={logo} />
            ) : (
              <Text style={wordmark}>{productName}</Text>
            )}
          </Section>

          <Section style={card}>
            <Heading as="h1" style={h1}>
              {`Sign in to ${productName}`}
            </Heading>
            <Text style={paragraph}>
              {userEmail
                ? `We received a request to sign in to ${productName} as ${userEmail}. `
                : `We received a request to sign in to ${productName}. `}
              Click the button below to continue. This link expires in {expiry} and can only be used once.
            </Text>

            <Section style={buttonSection}>
              <Button href={loginUrl} style={button}>
                {`Sign in to ${productName}`}
              </Button>
            </Section>

            {loginCode ? (
              <>
                <Text style={paragraph}>Or enter this one-time code on the sign-in page:</Text>
                <Text style={code} aria-label={`Sign-in code ${loginCode}`}>
                  {loginCode}
                </Text>
              </>
            ) : null}

            <Text style={muted}>If the button doesn't work, copy and paste this URL into your browser:</Text>
            <Text style={urlText}>
              <Link href={loginUrl} style={link}>
                {loginUrl}
              </Link>
            </Text>

            <Hr style={hr} />
            <Text style={muted}>
              If you didn't try to sign in, you can safely ignore this email. Nobody can access your account without
              this link.
            </Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>This is an automated security email from {productName}.</Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

MagicLink.PreviewProps = {
  loginUrl: "https://acme.example/auth/verify?token=8f14e45fceea167a5a36",
  productName: "Acme",
  logoUrl: "",
  userEmail: "ada@lovelace.example",
  loginCode: "482913",
  expiresInMinutes: 15,
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies MagicLinkProps;

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

const card: React.CSSProperties = {
  backgroundColor: "#ffffff",
  border: "1px solid #e4e4e7",
  borderRadius: "12px",
  padding: "32px 28px",
};

const h1: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "24px",
  lineHeight: "32px",
  fontWeight: 700,
  color: "#111827",
};

const paragraph: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "16px",
  lineHeight: "26px",
  color: "#374151",
};

const buttonSection: React.CSSProperties = { margin: "8px 0 24px" };

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

const code: React.CSSProperties = {
  margin: "0 0 24px",
  padding: "12px 16px",
  backgroundColor: "#f4f4f5",
  border: "1px solid #e4e4e7",
  borderRadius: "8px",
  fontFamily: 'SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  fontSize: "28px",
  lineHeight: "36px",
  fontWeight: 700,
  letterSpacing: "0.3em",
  textAlign: "center",
  color: "#111827",
};

const muted: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const urlText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "13px",
  lineHeight: "20px",
  wordBreak: "break-all",
};

const link: React.CSSProperties = {
  color: "#1d4ed8",
  textDecoration: "underline",
};

const hr: React.CSSProperties = {
  borderColor: "#e4e4e7",
  margin: "24px 0 16px",
};

const footer: React.CSSProperties = { padding: "24px 8px 0" };

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
$seed$
);

-- password-reset
select public.seed_catalogue_template(
  p_slug => $seed$password-reset$seed$,
  p_listing => $seed${"name":"Password reset","description":"Secure password reset email with expiry, optional request location and guidance for requests the user didn't make.","price":"0.00","category":"Authentication","author":"Letterpress","preview_image_url":null}$seed$,
  p_variables => $seed${"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"resetUrl":{"type":"string","maxLength":2048,"format":"uri","description":"http(s) reset URL with the one-time token, opened by the button and printed below it for copying."},"userName":{"default":"there","description":"Account owner's first name, used in the greeting (\"Hi Ada,\").","type":"string","maxLength":200},"productName":{"default":"Acme","description":"Your product or company name, shown in the header when there is no logo and throughout the copy.","type":"string","maxLength":200},"logoUrl":{"default":"","description":"http(s) URL of your logo, shown 32 px tall in the header; empty to show the product name as text instead.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]},"expiresInMinutes":{"default":60,"description":"Minutes the link stays valid, stated in the copy; whole hours read as hours (120 is \"2 hours\").","type":"number"},"requestedFrom":{"default":"","description":"Where the request came from, added to the copy as \"from …\", e.g. Firefox on Windows, London; empty to leave it out.","type":"string","maxLength":200},"supportEmail":{"default":"support@example.com","description":"Address to contact if someone else asked for the reset, shown as a mailto link.","type":"string","maxLength":320},"companyAddress":{"default":"Acme Inc., 123 Market Street, San Francisco, CA 94103","description":"Your postal address, shown in the footer.","type":"string","maxLength":1000}},"required":["resetUrl"],"additionalProperties":true}$seed$,
  p_code => $seed$import * as React from "react";
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
import { createTranslator } from "use-intl/core";
import de from "./_messages/password-reset/de.json";
import en from "./_messages/password-reset/en.json";
import es from "./_messages/password-reset/es.json";
import fr from "./_messages/password-reset/fr.json";
import ptBR from "./_messages/password-reset/pt-BR.json";

export type PasswordResetProps = {
  /** Language of the email: en, fr, de, es or pt-BR (another tag reads as en). */
  locale?: string;
  /** Password reset URL containing a one-time token. Required. */
  resetUrl?: string;
  /** First name of the account owner. */
  userName?: string;
  /** Your product or company name. */
  productName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** How long the reset link stays valid. */
  expiresInMinutes?: number;
  /** Optional description of where the request came from, e.g. "Chrome on macOS, Berlin". */
  requestedFrom?: string;
  /** Address users can contact if they did not request the reset. */
  supportEmail?: string;
  /** Postal address shown in the footer. */
  companyAddress?: string;
};

// One file of messages per locale, as in React Email's internationalization guide; each has every key of en.json.
// A translator per locale, made once: it keeps each message parsed across renders (parsing the welcome email's again
// took about 0.45 ms a render here), and it holds only these constant messages, never a render's values.
const translate = (locale: string, messages: typeof en) => createTranslator({ locale, messages, timeZone: "UTC" });
const translators = {
  en: translate("en", en),
  fr: translate("fr", fr),
  de: translate("de", de),
  es: translate("es", es),
  "pt-BR": translate("pt-BR", ptBR),
};

export default function PasswordReset({
  locale = "en",
  resetUrl = "https://example.com/reset-password",
  userName = "there",
  productName = "Acme",
  logoUrl = "",
  expiresInMinutes = 60,
  requestedFrom = "",
  supportEmail = "support@example.com",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: PasswordResetProps) {
  const lang = Object.hasOwn(translators, locale) ? (locale as keyof typeof translators) : "en";
  const t = translators[lang];
  const request = requestedFrom ? t("requestFrom", { productName, requestedFrom }) : t("request", { productName });
  // Whole hours read as hours (120 minutes is "2 hours").
  const expiry =
    expiresInMinutes % 60 === 0 && expiresInMinutes >= 60
      ? t("expiresInHours", { hours: expiresInMinutes / 60 })
      : t("expiresInMinutes", { minutes: expiresInMinutes });

  return (
    <Html lang={lang} dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{t("preview", { productName })}</Preview>
      <Body style={main}>
        <Container style={container}>
          <Section style={header}>
            {logoUrl ? (
              <Img src={logoUrl} height="32" alt={productName} style={logo} />
            ) : (
              <Text style={wordmark}>{productName}</Text>
            )}
          </Section>

          <Section style={card}>
            <Heading as="h1" style={h1}>
              {t("heading")}
            </Heading>
            <Text style={paragraph}>{t("greeting", { userName })}</Text>
            <Text style={paragraph}>{`${request} ${expiry}`}</Text>

            <Section style={buttonSection}>
              <Button href={resetUrl} style={button}>
                {t("cta")}
              </Button>
            </Section>

            <Text style={muted}>{t("copyUrl")}</Text>
            <Text style={urlText}>
              <Link href={resetUrl} style={link}>
                {resetUrl}
              </Link>
            </Text>

            <Hr style={hr} />
            <Text style={muted}>
              {t.rich("notYou", {
                supportEmail,
                support: (chunks) => (
                  <Link key="support" href={`mailto:${supportEmail}`} style={link}>
                    {chunks}
                  </Link>
                ),
              })}
            </Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>{t("footer", { productName })}</Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

PasswordReset.PreviewProps = {
  resetUrl: "https://acme.example/reset-password?token=c4ca4238a0b923820dcc",
  userName: "Ada",
  productName: "Acme",
  logoUrl: "",
  expiresInMinutes: 60,
  requestedFrom: "Firefox on Windows, London",
  supportEmail: "security@acme.example",
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies PasswordResetProps;

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

const card: React.CSSProperties = {
  backgroundColor: "#ffffff",
  border: "1px solid #e4e4e7",
  borderRadius: "12px",
  padding: "32px 28px",
};

const h1: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "24px",
  lineHeight: "32px",
  fontWeight: 700,
  color: "#111827",
};

const paragraph: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "16px",
  lineHeight: "26px",
  color: "#374151",
};

const buttonSection: React.CSSProperties = { margin: "8px 0 24px" };

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

const muted: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const urlText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "13px",
  lineHeight: "20px",
  wordBreak: "break-all",
};

const link: React.CSSProperties = {
  color: "#1d4ed8",
  textDecoration: "underline",
};

const hr: React.CSSProperties = {
  borderColor: "#e4e4e7",
  margin: "24px 0 16px",
};

const footer: React.CSSProperties = { padding: "24px 8px 0" };

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
$seed$
);

-- team-invite
select public.seed_catalogue_template(
  p_slug => $seed$team-invite$seed$,
  p_listing => $seed${"name":"Team invitation","description":"Invite someone to a team or workspace, showing who invited them, their role and when the invitation expires.","price":"0.00","category":"Team","author":"Letterpress","preview_image_url":null}$seed$,
  p_variables => $seed${"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"inviteUrl":{"type":"string","maxLength":2048,"format":"uri","description":"http(s) URL that accepts the invitation, opened by the button and printed below it for copying."},"inviterName":{"default":"A teammate","description":"Name of the person who sent the invitation, shown in the copy, the preview text and the footer, e.g. Grace Hopper.","type":"string","maxLength":200},"inviterEmail":{"default":"","description":"Inviter's email address, shown as a mailto link after their name; empty to leave it out.","type":"string","maxLength":320},"teamName":{"default":"their team","description":"Name of the team or workspace the invitee joins, shown in the heading and the copy, e.g. Compiler Team.","type":"string","maxLength":200},"productName":{"default":"Acme","description":"Your product or company name, shown in the header when there is no logo and throughout the copy.","type":"string","maxLength":200},"logoUrl":{"default":"","description":"http(s) URL of your logo, shown 32 px tall in the header; empty to show the product name as text instead.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]},"role":{"default":"Member","description":"Role the invitee will have, shown in the copy, e.g. Admin.","type":"string","maxLength":200},"expiresInDays":{"default":7,"description":"Days until the invitation expires, stated below the button.","type":"number"},"companyAddress":{"default":"Acme Inc., 123 Market Street, San Francisco, CA 94103","description":"Your postal address, shown in the footer.","type":"string","maxLength":1000}},"required":["inviteUrl"],"additionalProperties":true}$seed$,
  p_code => $seed$import * as React from "react";
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

export type TeamInviteProps = {
  /** Invitation acceptance URL. Required. */
  inviteUrl?: string;
  /** Name of the person who sent the invite. */
  inviterName?: string;
  /** Email of the person who sent the invite. Hidden when empty. */
  inviterEmail?: string;
  /** Name of the team, workspace or organisation. */
  teamName?: string;
  /** Your product or company name. */
  productName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Role the invitee will get, e.g. "Admin" or "Member". */
  role?: string;
  /** Days until the invitation expires. */
  expiresInDays?: number;
  /** Postal address shown in the footer. */
  companyAddress?: string;
};

export default function TeamInvite({
  inviteUrl = "https://example.com/invite",
  inviterName = "A teammate",
  inviterEmail = "",
  teamName = "their team",
  productName = "Acme",
  logoUrl = "",
  role = "Member",
  expiresInDays = 7,
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: TeamInviteProps) {
  const expiry = `${expiresInDays} day${expiresInDays === 1 ? "" : "s"}`;

  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{`${inviterName} invited you to join ${teamName} on ${productName}`}</Preview>
      <Body style={main}>
        <Container style={container}>
          <Section style={header}>
            {logoUrl ? (
              <Img src={logoUrl} height="32" alt={productName} style={logo} />
            ) : (
              <Text style={wordmark}>{productName}</Text>
            )}
          </Section>

          <Section style={card}>
            <Heading as="h1" style={h1}>
              {`Join ${teamName} on ${productName}`}
            </Heading>
            <Text style={paragraph}>
              <strong>{inviterName}</strong>
              {inviterEmail ? (
                <>
                  {" ("}
                  <Link href={`mailto:${inviterEmail}`} style={link}>
                    {inviterEmail}
                  </Link>
                  {")"}
                </>
              ) : null}{" "}
              has invited you to collaborate in <strong>{teamName}</strong> on {productName} as <strong>{role}</strong>.
            </Text>

            <Section style={buttonSection}>
              <Button href={inviteUrl} style={button}>
                Accept invitation
              </Button>
            </Section>

            <Text style={muted}>
              This invitation expires in {expiry}. If the button doesn't work, copy and paste this URL into your
              browser:
            </Text>
            <Text style={urlText}>
              <Link href={inviteUrl} style={link}>
                {inviteUrl}
              </Link>
            </Text>

            <Hr style={hr} />
            <Text style={muted}>
              Weren't expecting this invitation? You can ignore this email. No account will be created unless you
              accept.
            </Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>{`This invitation was sent by ${inviterName} via ${productName}.`}</Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

TeamInvite.PreviewProps = {
  inviteUrl: "https://acme.example/invites/accept?token=e4da3b7fbbce2345d777",
  inviterName: "Grace Hopper",
  inviterEmail: "grace@navy.example",
  teamName: "Compiler Team",
  productName: "Acme",
  logoUrl: "",
  role: "Admin",
  expiresInDays: 7,
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies TeamInviteProps;

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

const card: React.CSSProperties = {
  backgroundColor: "#ffffff",
  border: "1px solid #e4e4e7",
  borderRadius: "12px",
  padding: "32px 28px",
};

const h1: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "24px",
  lineHeight: "32px",
  fontWeight: 700,
  color: "#111827",
};

const paragraph: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "16px",
  lineHeight: "26px",
  color: "#374151",
};

const buttonSection: React.CSSProperties = { margin: "8px 0 24px" };

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

const muted: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const urlText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "13px",
  lineHeight: "20px",
  wordBreak: "break-all",
};

const link: React.CSSProperties = {
  color: "#1d4ed8",
  textDecoration: "underline",
};

const hr: React.CSSProperties = {
  borderColor: "#e4e4e7",
  margin: "24px 0 16px",
};

const footer: React.CSSProperties = { padding: "24px 8px 0" };

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
$seed$
);

-- receipt
select public.seed_catalogue_template(
  p_slug => $seed$receipt$seed$,
  p_listing => $seed${"name":"Order receipt","description":"Itemised purchase receipt with quantities, subtotal, discount, shipping, tax and total, plus order and payment details.","price":"19.00","category":"Commerce","author":"Letterpress","preview_image_url":null}$seed$,
  p_variables => $seed${"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"orderId":{"type":"string","maxLength":200,"description":"Order number shown after # in the order details and the preview text, e.g. A-10482."},"items":{"maxItems":100,"type":"array","items":{"type":"object","properties":{"name":{"type":"string","maxLength":200,"description":"Product or service name, e.g. Brass pen."},"quantity":{"type":"number","description":"Number of units; the line amount is quantity × unitPrice."},"unitPrice":{"type":"number","description":"Price of one unit in the store's currency, a number without the symbol, e.g. 18.5."}},"required":["name","quantity","unitPrice"],"additionalProperties":true},"description":"Purchased items, one row each with quantity, unit price and line amount; the subtotal is the sum of the lines."},"customerName":{"default":"there","description":"Customer's first name, used in the opening line, e.g. Ada.","type":"string","maxLength":200},"storeName":{"default":"Acme Store","description":"Your store's name, shown in the header when there is no logo, the preview text and the footer.","type":"string","maxLength":200},"logoUrl":{"default":"","description":"http(s) URL of your logo, shown 32 px tall in the header; empty to show the store name as text instead.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]},"orderDate":{"default":"","description":"Order date as it should read, e.g. March 4, 2025; empty to leave it out.","type":"string","maxLength":200},"currencySymbol":{"default":"$","description":"Symbol placed before every amount, e.g. $ or €; amounts show two decimals.","type":"string","maxLength":200},"currency":{"default":"","description":"ISO 4217 currency code, e.g. EUR or BRL: every amount is then written as the email's language writes it (€92.23, 92,23 €, R$ 92,23), and currencySymbol is not used; empty for currencySymbol and two decimals.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":3,"pattern":"^[A-Z]{3}$"}]},"shippingAmount":{"default":0,"description":"Shipping cost, added to the total; its row is left out when 0.","type":"number"},"taxAmount":{"default":0,"description":"Tax, added to the total; its row is left out when 0.","type":"number"},"discountAmount":{"default":0,"description":"Discount as a positive number, subtracted from the total; its row is left out when 0.","type":"number"},"paymentMethod":{"default":"","description":"Payment method as it should read, e.g. Visa ending in 4242; empty to leave it out.","type":"string","maxLength":200},"orderUrl":{"default":"","description":"http(s) URL of the order in your app, opened by the \"View your order\" button; empty for no button.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]},"supportEmail":{"default":"support@example.com","description":"Address for questions about the order, shown as a mailto link.","type":"string","maxLength":320},"companyAddress":{"default":"Acme Inc., 123 Market Street, San Francisco, CA 94103","description":"Your postal address, shown in the footer.","type":"string","maxLength":1000}},"required":["orderId","items"],"additionalProperties":true}$seed$,
  p_code => $seed$import * as React from "react";
import {
  Body,
  Button,
  Column,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Row,
  Section,
  Text,
} from "@react-email/components";
import { createFormatter, createTranslator } from "use-intl/core";
import de from "./_messages/receipt/de.json";
import en from "./_messages/receipt/en.json";
import es from "./_messages/receipt/es.json";
import fr from "./_messages/receipt/fr.json";
import ptBR from "./_messages/receipt/pt-BR.json";

export type ReceiptLineItem = {
  /** Product or service name. */
  name: string;
  /** Number of units. */
  quantity: number;
  /** Price of a single unit, in the order currency. */
  unitPrice: number;
};

export type ReceiptProps = {
  /** Language of the email: en, fr, de, es or pt-BR (another tag reads as en). */
  locale?: string;
  /** Order or invoice identifier. Required. */
  orderId?: string;
  /** Purchased items. Required. */
  items?: ReceiptLineItem[];
  /** Customer's first name. */
  customerName?: string;
  /** Your store or company name. */
  storeName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Pre-formatted order date, e.g. "March 4, 2025". */
  orderDate?: string;
  /** Currency symbol placed before every amount. */
  currencySymbol?: string;
  /** ISO 4217 currency code, e.g. EUR: amounts are then written as the email's language writes that currency. */
  currency?: string;
  /** Shipping cost. Hidden when 0. */
  shippingAmount?: number;
  /** Tax amount. Hidden when 0. */
  taxAmount?: number;
  /** Discount amount (positive number). Hidden when 0. */
  discountAmount?: number;
  /** Payment method description, e.g. "Visa ending in 4242". */
  paymentMethod?: string;
  /** Link to the order in your app. The button is hidden when empty. */
  orderUrl?: string;
  /** Address customers can contact about the order. */
  supportEmail?: string;
  /** Postal address shown in the footer. */
  companyAddress?: string;
};

// One file of messages per locale, as in React Email's internationalization guide; each has every key of en.json.
// A translator and a formatter per locale, made once: they keep each message parsed and each number format made
// across renders, and hold only these constant messages, never a render's values.
const translate = (locale: string, messages: typeof en) => ({
  t: createTranslator({ locale, messages, timeZone: "UTC" }),
  format: createFormatter({ locale, timeZone: "UTC" }),
});
const translators = {
  en: translate("en", en),
  fr: translate("fr", fr),
  de: translate("de", de),
  es: translate("es", es),
  "pt-BR": translate("pt-BR", ptBR),
};

export default function Receipt({
  locale = "en",
  orderId = "0000",
  items = [],
  customerName = "there",
  storeName = "Acme Store",
  logoUrl = "",
  orderDate = "",
  currencySymbol = "$",
  currency = "",
  shippingAmount = 0,
  taxAmount = 0,
  discountAmount = 0,
  paymentMethod = "",
  orderUrl = "",
  supportEmail = "support@example.com",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: ReceiptProps) {
  const lang = Object.hasOwn(translators, locale) ? (locale as keyof typeof translators) : "en";
  const { t, format } = translators[lang];
  const subtotal = items.reduce((sum, item) => sum + item.quantity * item.unitPrice, 0);
  const total = subtotal + shippingAmount + taxAmount - discountAmount;
  // With a currency code, the locale's own currency format; else the symbol and two decimals, ungrouped, as before.
  const money = (amount: number) =>
    /^[A-Z]{3}$/.test(currency)
      ? format.number(amount, { style: "currency", currency })
      : t("symbolAmount", {
          sign: amount < 0 ? "-" : "",
          symbol: currencySymbol,
          amount: format.number(Math.abs(amount), {
            minimumFractionDigits: 2,
            maximumFractionDigits: 2,
            useGrouping: false,
          }),
        });

  return (
    <Html lang={lang} dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{t("preview", { storeName, orderId, total: money(total) })}</Preview>
      <Body style={main}>
        <Container style={container}>
          <Section style={header}>
            {logoUrl ? (
              <Img src={logoUrl} height="32" alt={storeName} style={logo} />
            ) : (
              <Text style={wordmark}>{storeName}</Text>
            )}
          </Section>

          <Section style={card}>
            <Heading as="h1" style={h1}>
              {t("heading")}
            </Heading>
            <Text style={paragraph}>{t("intro", { customerName })}</Text>

            <Row style={metaRow}>
              <Column style={metaColumn}>
                <Text style={label}>{t("orderNumber")}</Text>
                <Text style={value}>{t("orderNumberValue", { orderId })}</Text>
              </Column>
              {orderDate ? (
                <Column style={metaColumn}>
                  <Text style={label}>{t("date")}</Text>
                  <Text style={value}>{orderDate}</Text>
                </Column>
              ) : null}
              {paymentMethod ? (
                <Column style={metaColumn}>
                  <Text style={label}>{t("payment")}</Text>
                  <Text style={value}>{paymentMethod}</Text>
                </Column>
              ) : null}
            </Row>

            <Hr style={hr} />

            <Row>
              <Column>
                <Text style={tableHeading}>{t("item")}</Text>
              </Column>
              <Column style={amountColumn}>
                <Text style={{ ...tableHeading, textAlign: "right" }}>{t("amount")}</Text>
              </Column>
            </Row>

            {items.length === 0 ? (
              <Text style={muted}>{t("noItems")}</Text>
            ) : (
              items.map((item, index) => (
                <Row key={`${item.name}-${index}`} style={itemRow}>
                  <Column>
                    <Text style={itemName}>{item.name}</Text>
                    <Text style={itemMeta}>
                      {t("quantity", { quantity: item.quantity, unitPrice: money(item.unitPrice) })}
                    </Text>
                  </Column>
                  <Column style={amountColumn}>
                    <Text style={itemAmount}>{money(item.quantity * item.unitPrice)}</Text>
                  </Column>
                </Row>
              ))
            )}

            <Hr style={hr} />

            <Row>
              <Column>
                <Text style={summaryLabel}>{t("subtotal")}</Text>
              </Column>
              <Column style={amountColumn}>
                <Text style={summaryValue}>{money(subtotal)}</Text>
              </Column>
            </Row>
            {discountAmount ? (
              <Row>
                <Column>
                  <Text style={summaryLabel}>{t("discount")}</Text>
                </Column>
                <Column style={amountColumn}>
                  <Text style={summaryValue}>{money(-discountAmount)}</Text>
                </Column>
              </Row>
            ) : null}
            {shippingAmount ? (
              <Row>
                <Column>
                  <Text style={summaryLabel}>{t("shipping")}</Text>
                </Column>
                <Column style={amountColumn}>
                  <Text style={summaryValue}>{money(shippingAmount)}</Text>
                </Column>
              </Row>
            ) : null}
            {taxAmount ? (
              <Row>
                <Column>
                  <Text style={summaryLabel}>{t("tax")}</Text>
                </Column>
                <Column style={amountColumn}>
                  <Text style={summaryValue}>{money(taxAmount)}</Text>
                </Column>
              </Row>
            ) : null}
            <Row style={totalRow}>
              <Column>
                <Text style={totalLabel}>{t("total")}</Text>
              </Column>
              <Column style={amountColumn}>
                <Text style={totalValue}>{money(total)}</Text>
              </Column>
            </Row>

            {orderUrl ? (
              <Section style={buttonSection}>
                <Button href={orderUrl} style={button}>
                  {t("cta")}
                </Button>
              </Section>
            ) : null}

            <Text style={muted}>
              {t.rich("help", {
                supportEmail,
                support: (chunks) => (
                  <Link key="support" href={`mailto:${supportEmail}`} style={link}>
                    {chunks}
                  </Link>
                ),
              })}
            </Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>{t("footer", { storeName })}</Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

Receipt.PreviewProps = {
  orderId: "A-10482",
  items: [
    { name: "Letterpress notebook (A5, dotted)", quantity: 2, unitPrice: 18.5 },
    { name: "Brass pen", quantity: 1, unitPrice: 42 },
    { name: "Gift wrapping", quantity: 1, unitPrice: 4 },
  ],
  customerName: "Ada",
  storeName: "Acme Store",
  logoUrl: "",
  orderDate: "March 4, 2025",
  currencySymbol: "$",
  currency: "",
  shippingAmount: 6.95,
  taxAmount: 7.28,
  discountAmount: 5,
  paymentMethod: "Visa ending in 4242",
  orderUrl: "https://store.acme.example/orders/A-10482",
  supportEmail: "orders@acme.example",
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies ReceiptProps;

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

const card: React.CSSProperties = {
  backgroundColor: "#ffffff",
  border: "1px solid #e4e4e7",
  borderRadius: "12px",
  padding: "32px 28px",
};

const h1: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "24px",
  lineHeight: "32px",
  fontWeight: 700,
  color: "#111827",
};

const paragraph: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "16px",
  lineHeight: "26px",
  color: "#374151",
};

const metaRow: React.CSSProperties = { marginTop: "8px" };

const metaColumn: React.CSSProperties = {
  verticalAlign: "top",
  paddingRight: "12px",
};

const label: React.CSSProperties = {
  margin: "0",
  fontSize: "12px",
  lineHeight: "18px",
  fontWeight: 600,
  textTransform: "uppercase",
  letterSpacing: "0.05em",
  color: "#52525b",
};

const value: React.CSSProperties = {
  margin: "2px 0 0",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#111827",
};

const tableHeading: React.CSSProperties = {
  ...label,
  margin: "0 0 8px",
};

const amountColumn: React.CSSProperties = {
  width: "110px",
  verticalAlign: "top",
  textAlign: "right",
};

const itemRow: React.CSSProperties = { marginBottom: "12px" };

const itemName: React.CSSProperties = {
  margin: "0",
  fontSize: "15px",
  lineHeight: "22px",
  fontWeight: 600,
  color: "#111827",
};

const itemMeta: React.CSSProperties = {
  margin: "0 0 12px",
  fontSize: "13px",
  lineHeight: "20px",
  color: "#52525b",
};

const itemAmount: React.CSSProperties = {
  margin: "0",
  fontSize: "15px",
  lineHeight: "22px",
  color: "#111827",
  textAlign: "right",
};

const summaryLabel: React.CSSProperties = {
  margin: "0 0 6px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#374151",
};

const summaryValue: React.CSSProperties = {
  ...summaryLabel,
  textAlign: "right",
};

const totalRow: React.CSSProperties = { marginTop: "6px" };

const totalLabel: React.CSSProperties = {
  margin: "6px 0 0",
  fontSize: "16px",
  lineHeight: "24px",
  fontWeight: 700,
  color: "#111827",
};

const totalValue: React.CSSProperties = {
  ...totalLabel,
  textAlign: "right",
};

const buttonSection: React.CSSProperties = { margin: "28px 0 24px" };

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

const muted: React.CSSProperties = {
  margin: "16px 0 0",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const link: React.CSSProperties = {
  color: "#1d4ed8",
  textDecoration: "underline",
};

const hr: React.CSSProperties = {
  borderColor: "#e4e4e7",
  margin: "20px 0",
};

const footer: React.CSSProperties = { padding: "24px 8px 0" };

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
$seed$
);

-- order-shipped
select public.seed_catalogue_template(
  p_slug => $seed$order-shipped$seed$,
  p_listing => $seed${"name":"Order shipped","description":"Shipping confirmation with a tracking button, carrier and tracking number, delivery estimate and address.","price":"9.00","category":"Commerce","author":"Letterpress","preview_image_url":null}$seed$,
  p_variables => $seed${"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"trackingUrl":{"type":"string","maxLength":2048,"format":"uri","description":"http(s) URL of the carrier's tracking page, opened by the \"Track your package\" button and a link below it."},"orderId":{"default":"0000","description":"Order number shown after # in the copy, the details and the preview text, e.g. A-10482.","type":"string","maxLength":200},"customerName":{"default":"there","description":"Customer's first name, used in the opening line, e.g. Ada.","type":"string","maxLength":200},"storeName":{"default":"Acme Store","description":"Your store's name, shown in the header when there is no logo and in the footer.","type":"string","maxLength":200},"logoUrl":{"default":"","description":"http(s) URL of your logo, shown 32 px tall in the header; empty to show the store name as text instead.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]},"carrier":{"default":"UPS","description":"Shipping carrier, named in the copy and the details, e.g. UPS.","type":"string","maxLength":200},"trackingNumber":{"default":"","description":"Carrier's tracking number, listed in the details, e.g. 1Z999AA10123456784; empty to leave it out.","type":"string","maxLength":200},"estimatedDelivery":{"default":"","description":"Delivery estimate as it should read, e.g. Thursday, March 6, listed in the details and the preview text; empty to leave it out.","type":"string","maxLength":200},"estimatedDeliveryDate":{"default":"","description":"Delivery estimate as a date, YYYY-MM-DD, e.g. 2025-03-06: written out in the email's language (Thursday, March 6; jeudi 6 mars) and shown instead of estimatedDelivery; empty to leave it out.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":10,"format":"date","pattern":"^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))$"}]},"shippingAddress":{"default":"","description":"Delivery address on one line, listed in the details as \"Shipping to\"; empty to leave it out.","type":"string","maxLength":1000},"itemCount":{"default":1,"description":"Number of items in the package, listed in the details (\"3 items\").","type":"number"},"supportEmail":{"default":"support@example.com","description":"Address for delivery problems, shown as a mailto link.","type":"string","maxLength":320},"companyAddress":{"default":"Acme Inc., 123 Market Street, San Francisco, CA 94103","description":"Your postal address, shown in the footer.","type":"string","maxLength":1000}},"required":["trackingUrl"],"additionalProperties":true}$seed$,
  p_code => $seed$import * as React from "react";
import {
  Body,
  Button,
  Column,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Row,
  Section,
  Text,
} from "@react-email/components";
import { createTranslator } from "use-intl/core";
import de from "./_messages/order-shipped/de.json";
import en from "./_messages/order-shipped/en.json";
import es from "./_messages/order-shipped/es.json";
import fr from "./_messages/order-shipped/fr.json";
import ptBR from "./_messages/order-shipped/pt-BR.json";

export type OrderShippedProps = {
  /** Language of the email: en, fr, de, es or pt-BR (another tag reads as en). */
  locale?: string;
  /** Carrier tracking page URL. Required. */
  trackingUrl?: string;
  /** Order identifier shown to the customer. */
  orderId?: string;
  /** Customer's first name. */
  customerName?: string;
  /** Your store or company name. */
  storeName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Shipping carrier, e.g. "UPS". */
  carrier?: string;
  /** Carrier tracking number. Hidden when empty. */
  trackingNumber?: string;
  /** Pre-formatted delivery estimate, e.g. "Thursday, March 6". Hidden when empty. */
  estimatedDelivery?: string;
  /** Delivery estimate as a date, YYYY-MM-DD, written out in the email's language; shown instead of estimatedDelivery. */
  estimatedDeliveryDate?: string;
  /** One-line delivery address. Hidden when empty. */
  shippingAddress?: string;
  /** Number of items in the package. */
  itemCount?: number;
  /** Address customers can contact about the delivery. */
  supportEmail?: string;
  /** Postal address shown in the footer. */
  companyAddress?: string;
};

// One file of messages per locale, as in React Email's internationalization guide; each has every key of en.json.
// A translator per locale, made once: it keeps each message parsed across renders (parsing the welcome email's again
// took about 0.45 ms a render here), and it holds only these constant messages, never a render's values.
const translate = (locale: string, messages: typeof en) => createTranslator({ locale, messages, timeZone: "UTC" });
const translators = {
  en: translate("en", en),
  fr: translate("fr", fr),
  de: translate("de", de),
  es: translate("es", es),
  "pt-BR": translate("pt-BR", ptBR),
};

/** A YYYY-MM-DD day as a Date at midnight UTC (the translator's time zone), or null when it is no such day. */
function calendarDay(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const day = new Date(`${value}T00:00:00Z`);
  // An impossible day (2025-02-30) is invalid, or rolls over into another one.
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value) ? day : null;
}

export default function OrderShipped({
  locale = "en",
  trackingUrl = "https://example.com/track",
  orderId = "0000",
  customerName = "there",
  storeName = "Acme Store",
  logoUrl = "",
  carrier = "UPS",
  trackingNumber = "",
  estimatedDelivery = "",
  estimatedDeliveryDate = "",
  shippingAddress = "",
  itemCount = 1,
  supportEmail = "support@example.com",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: OrderShippedProps) {
  const lang = Object.hasOwn(translators, locale) ? (locale as keyof typeof translators) : "en";
  const t = translators[lang];
  const deliveryDay = calendarDay(estimatedDeliveryDate);
  const estimate = deliveryDay ? t("deliveryDate", { date: deliveryDay }) : estimatedDelivery;
  const details: { label: string; value: string }[] = [
    { label: t("details.order"), value: t("details.orderNumber", { orderId }) },
    { label: t("details.items"), value: t("details.itemCount", { count: itemCount }) },
    { label: t("details.carrier"), value: carrier },
  ];
  if (trackingNumber) details.push({ label: t("details.trackingNumber"), value: trackingNumber });
  if (estimate) details.push({ label: t("details.estimatedDelivery"), value: estimate });
  if (shippingAddress) details.push({ label: t("details.shippingTo"), value: shippingAddress });

  return (
    <Html lang={lang} dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{estimate ? t("previewWithEstimate", { orderId, estimate }) : t("preview", { orderId })}</Preview>
      <Body style={main}>
        <Container style={container}>
          <Section style={header}>
            {logoUrl ? (
              <Img src={logoUrl} height="32" alt={storeName} style={logo} />
            ) : (
              <Text style={wordmark}>{storeName}</Text>
            )}
          </Section>

          <Section style={card}>
            <Heading as="h1" style={h1}>
              {t("heading")}
            </Heading>
            <Text style={paragraph}>{t("intro", { customerName, orderId, carrier })}</Text>

            <Section style={buttonSection}>
              <Button href={trackingUrl} style={button}>
                {t("cta")}
              </Button>
            </Section>

            <Section style={detailsBox}>
              {details.map((detail) => (
                <Row key={detail.label}>
                  <Column style={labelColumn}>
                    <Text style={label}>{detail.label}</Text>
                  </Column>
                  <Column>
                    <Text style={value}>{detail.value}</Text>
                  </Column>
                </Row>
              ))}
            </Section>

            <Text style={muted}>
              {t.rich("trackingDelay", {
                link: (chunks) => (
                  <Link key="link" href={trackingUrl} style={link}>
                    {chunks}
                  </Link>
                ),
              })}
            </Text>

            <Hr style={hr} />
            <Text style={muted}>
              {t.rich("help", {
                supportEmail,
                support: (chunks) => (
                  <Link key="support" href={`mailto:${supportEmail}`} style={link}>
                    {chunks}
                  </Link>
                ),
              })}
            </Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>{t("footer", { storeName })}</Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

OrderShipped.PreviewProps = {
  trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
  orderId: "A-10482",
  customerName: "Ada",
  storeName: "Acme Store",
  logoUrl: "",
  carrier: "UPS",
  trackingNumber: "1Z999AA10123456784",
  estimatedDelivery: "Thursday, March 6",
  estimatedDeliveryDate: "",
  shippingAddress: "12 St James's Square, London SW1Y 4JH, United Kingdom",
  itemCount: 3,
  supportEmail: "orders@acme.example",
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies OrderShippedProps;

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

const card: React.CSSProperties = {
  backgroundColor: "#ffffff",
  border: "1px solid #e4e4e7",
  borderRadius: "12px",
  padding: "32px 28px",
};

const h1: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "24px",
  lineHeight: "32px",
  fontWeight: 700,
  color: "#111827",
};

const paragraph: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "16px",
  lineHeight: "26px",
  color: "#374151",
};

const buttonSection: React.CSSProperties = { margin: "8px 0 24px" };

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

const detailsBox: React.CSSProperties = {
  backgroundColor: "#f9fafb",
  border: "1px solid #e4e4e7",
  borderRadius: "8px",
  padding: "12px 16px",
  marginBottom: "20px",
};

const labelColumn: React.CSSProperties = {
  width: "42%",
  verticalAlign: "top",
  paddingRight: "12px",
};

const label: React.CSSProperties = {
  margin: "6px 0",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const value: React.CSSProperties = {
  margin: "6px 0",
  fontSize: "14px",
  lineHeight: "22px",
  fontWeight: 600,
  color: "#111827",
};

const muted: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const link: React.CSSProperties = {
  color: "#1d4ed8",
  textDecoration: "underline",
};

const hr: React.CSSProperties = {
  borderColor: "#e4e4e7",
  margin: "24px 0 16px",
};

const footer: React.CSSProperties = { padding: "24px 8px 0" };

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
$seed$
);

-- newsletter
select public.seed_catalogue_template(
  p_slug => $seed$newsletter$seed$,
  p_listing => $seed${"name":"Newsletter","description":"Editorial newsletter with an intro, a list of articles with optional cover images, a closing CTA and an unsubscribe footer.","price":"29.00","category":"Marketing","author":"Letterpress","preview_image_url":null}$seed$,
  p_variables => $seed${"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"articles":{"maxItems":50,"type":"array","items":{"type":"object","properties":{"title":{"type":"string","maxLength":200,"description":"Article headline, shown as a heading linked to the article, e.g. Introducing scheduled sends."},"summary":{"type":"string","maxLength":5000,"description":"One or two sentences shown under the headline."},"url":{"type":"string","maxLength":2048,"format":"uri","description":"http(s) URL of the full article, linked from the headline, the cover image and \"Continue reading\"."},"imageUrl":{"description":"http(s) URL of a cover image shown above the headline, ideally 1072 px wide; leave out for none.","type":"string","maxLength":2048,"format":"uri"},"imageAlt":{"description":"Alt text of the cover image; the title is used when it is left out or empty.","type":"string","maxLength":200}},"required":["title","summary","url"],"additionalProperties":true},"description":"Articles of this issue in order, each with its headline, summary and a \"Continue reading\" link."},"unsubscribeUrl":{"default":"","description":"http(s) unsubscribe URL, linked as \"Unsubscribe\" in the footer; empty for no link (mail sent to many people should have one).","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]},"brandName":{"default":"Acme","description":"Publication or company name, shown in the header when there is no logo, the preview text and the footer.","type":"string","maxLength":200},"logoUrl":{"default":"","description":"http(s) URL of your logo, shown 32 px tall in the header; empty to show the brand name as text instead.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]},"issueTitle":{"default":"What's new this month","description":"Headline of this issue, shown as the heading and in the preview text.","type":"string","maxLength":200},"issueNumber":{"default":0,"description":"Issue number, shown above the heading as \"Issue #42\"; hidden when 0.","type":"number"},"issueDate":{"default":"","description":"Publication date as it should read, shown above the heading, e.g. March 2025; empty to leave it out.","type":"string","maxLength":200},"intro":{"default":"Here's a round-up of what we've been working on, and a few things we think you'll enjoy.","description":"Introductory paragraph shown above the articles.","type":"string","maxLength":5000},"ctaLabel":{"default":"Read more on our blog","description":"Text of the button after the articles.","type":"string","maxLength":200},"ctaUrl":{"default":"https://example.com/blog","description":"http(s) URL the button after the articles opens.","type":"string","maxLength":2048,"format":"uri"},"webVersionUrl":{"default":"","description":"http(s) URL of this issue on the web, linked as \"View in browser\" in the header; empty for no link.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]},"companyAddress":{"default":"Acme Inc., 123 Market Street, San Francisco, CA 94103","description":"Your postal address, shown in the footer (anti-spam laws such as CAN-SPAM require one in marketing email).","type":"string","maxLength":1000}},"required":["articles"],"additionalProperties":true}$seed$,
  p_code => $seed$import * as React from "react";
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
$seed$
);

-- usage-alert
select public.seed_catalogue_template(
  p_slug => $seed$usage-alert$seed$,
  p_listing => $seed${"name":"Usage alert","description":"Warns customers as they approach or hit a plan limit, with a progress bar and an upgrade button.","price":"9.00","category":"Billing","author":"Letterpress","preview_image_url":null}$seed$,
  p_variables => $seed${"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"upgradeUrl":{"type":"string","maxLength":2048,"format":"uri","description":"http(s) URL the \"Upgrade your plan\" button opens."},"userName":{"default":"there","description":"Account owner's first name, used in the greeting (\"Hi Ada,\").","type":"string","maxLength":200},"productName":{"default":"Acme","description":"Your product or company name, shown in the header when there is no logo and throughout the copy.","type":"string","maxLength":200},"logoUrl":{"default":"","description":"http(s) URL of your logo, shown 32 px tall in the header; empty to show the product name as text instead.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]},"metricName":{"default":"API requests","description":"What is metered, named in the heading, the copy and the usage bar, e.g. API requests.","type":"string","maxLength":200},"used":{"default":8000,"description":"Amount used so far this period, shown against the limit (\"8,000 / 10,000\") and as a percentage.","type":"number"},"limit":{"default":10000,"description":"The plan's limit for the period; once used reaches it, or when it is 0, the email says the limit is reached.","type":"number"},"planName":{"default":"Free","description":"Name of the current plan, named in the copy, e.g. Starter.","type":"string","maxLength":200},"periodEnd":{"default":"","description":"End of the billing period as it should read, shown as when usage resets, e.g. March 31; empty to leave it out.","type":"string","maxLength":200},"usageUrl":{"default":"","description":"http(s) URL of your usage dashboard, linked below the button; empty for no link.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]},"companyAddress":{"default":"Acme Inc., 123 Market Street, San Francisco, CA 94103","description":"Your postal address, shown in the footer.","type":"string","maxLength":1000},"unsubscribeUrl":{"default":"","description":"http(s) unsubscribe URL, linked as \"Stop usage alerts\" in the footer; empty for no link (mail sent to many people should have one).","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]}},"required":["upgradeUrl"],"additionalProperties":true}$seed$,
  p_code => $seed$import * as React from "react";
import {
  Body,
  Button,
  Column,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Row,
  Section,
  Text,
} from "@react-email/components";

export type UsageAlertProps = {
  /** Where users can upgrade their plan. Required. */
  upgradeUrl?: string;
  /** First name of the account owner. */
  userName?: string;
  /** Your product or company name. */
  productName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** What is being metered, e.g. "API requests" or "emails". */
  metricName?: string;
  /** Amount used so far in the current period. */
  used?: number;
  /** Plan limit for the current period. */
  limit?: number;
  /** Name of the current plan. */
  planName?: string;
  /** Pre-formatted end of the billing period, e.g. "March 31". Hidden when empty. */
  periodEnd?: string;
  /** Link to the usage dashboard. Hidden when empty. */
  usageUrl?: string;
  /** Postal address shown in the footer. */
  companyAddress?: string;
  /** Unsubscribe URL: the footer's link, shown only when given (mail sent to many people should have one). */
  unsubscribeUrl?: string;
};

/** 1234567 -> "1,234,567", without relying on locale APIs. */
function formatNumber(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export default function UsageAlert({
  upgradeUrl = "https://example.com/billing/upgrade",
  userName = "there",
  productName = "Acme",
  logoUrl = "",
  metricName = "API requests",
  used = 8000,
  limit = 10000,
  planName = "Free",
  periodEnd = "",
  usageUrl = "",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
  unsubscribeUrl = "",
}: UsageAlertProps) {
  const percent = limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 100;
  const overLimit = limit > 0 ? used >= limit : true;
  const barColor = overLimit ? "#b91c1c" : percent >= 90 ? "#b45309" : "#111827";
  const headline = overLimit
    ? `You've reached your ${metricName} limit`
    : `You've used ${percent}% of your ${metricName}`;

  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{`${headline} on the ${productName} ${planName} plan`}</Preview>
      <Body style={main}>
        <Container style={container}>
          <Section style={header}>
            {logoUrl ? (
              <Img src={logoUrl} height="32" alt={productName} style={logo} />
            ) : (
              <Text style={wordmark}>{productName}</Text>
            )}
          </Section>

          <Section style={card}>
            <Heading as="h1" style={h1}>
              {headline}
            </Heading>
            <Text style={paragraph}>{`Hi ${userName},`}</Text>
            <Text style={paragraph}>
              {overLimit
                ? `Your ${productName} account has used all ${formatNumber(limit)} ${metricName} included in the ${planName} plan${periodEnd ? ` for the period ending ${periodEnd}` : ""}. Upgrade now to avoid interruptions.`
                : `Your ${productName} account has used ${formatNumber(used)} of the ${formatNumber(limit)} ${metricName} included in the ${planName} plan${periodEnd ? ` for the period ending ${periodEnd}` : ""}. Upgrade before you hit the limit to avoid interruptions.`}
            </Text>

            <Section style={usageBox}>
              <Row>
                <Column>
                  <Text style={usageLabel}>{metricName}</Text>
                </Column>
                <Column style={usageValueColumn}>
                  <Text style={usageValue}>{`${formatNumber(used)} / ${formatNumber(limit)}`}</Text>
                </Column>
              </Row>
              <Row style={track} role="img" aria-label={`${percent}% of ${metricName} used`}>
                {percent > 0 ? (
                  <Column style={{ ...bar, width: `${percent}%`, backgroundColor: barColor }}>&nbsp;</Column>
                ) : null}
                {percent < 100 ? <Column style={bar}>&nbsp;</Column> : null}
              </Row>
              <Text style={usageCaption}>{`${percent}% used${periodEnd ? ` · resets ${periodEnd}` : ""}`}</Text>
            </Section>

            <Section style={buttonSection}>
              <Button href={upgradeUrl} style={button}>
                Upgrade your plan
              </Button>
            </Section>

            {usageUrl ? (
              <Text style={muted}>
                See a full breakdown on your{" "}
                <Link href={usageUrl} style={link}>
                  usage dashboard
                </Link>
                .
              </Text>
            ) : null}

            <Hr style={hr} />
            <Text style={muted}>
              We send usage alerts at 80%, 90% and 100% of your plan limits so there are no surprises.
            </Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>
              {`You're receiving this email because you're an owner of a ${productName} account.`}
              {unsubscribeUrl && (
                <>
                  {" "}
                  <Link href={unsubscribeUrl} style={mutedLink}>
                    Stop usage alerts
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

UsageAlert.PreviewProps = {
  upgradeUrl: "https://acme.example/settings/billing?upgrade=pro",
  userName: "Ada",
  productName: "Acme",
  logoUrl: "",
  metricName: "API requests",
  used: 92450,
  limit: 100000,
  planName: "Starter",
  periodEnd: "March 31",
  usageUrl: "https://acme.example/settings/usage",
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
  unsubscribeUrl: "https://acme.example/unsubscribe?u=42",
} satisfies UsageAlertProps;

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

const card: React.CSSProperties = {
  backgroundColor: "#ffffff",
  border: "1px solid #e4e4e7",
  borderRadius: "12px",
  padding: "32px 28px",
};

const h1: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "24px",
  lineHeight: "32px",
  fontWeight: 700,
  color: "#111827",
};

const paragraph: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "16px",
  lineHeight: "26px",
  color: "#374151",
};

const usageBox: React.CSSProperties = {
  backgroundColor: "#f9fafb",
  border: "1px solid #e4e4e7",
  borderRadius: "8px",
  padding: "16px",
  margin: "8px 0 24px",
};

const usageLabel: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "14px",
  lineHeight: "22px",
  fontWeight: 600,
  color: "#111827",
};

const usageValueColumn: React.CSSProperties = { textAlign: "right" };

const usageValue: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#374151",
  textAlign: "right",
};

const track: React.CSSProperties = {
  width: "100%",
  backgroundColor: "#e5e7eb",
  borderRadius: "4px",
};

const bar: React.CSSProperties = {
  height: "8px",
  fontSize: "1px",
  lineHeight: "8px",
  padding: "0",
};

const usageCaption: React.CSSProperties = {
  margin: "8px 0 0",
  fontSize: "13px",
  lineHeight: "20px",
  color: "#52525b",
};

const buttonSection: React.CSSProperties = { margin: "0 0 24px" };

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

const muted: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const link: React.CSSProperties = {
  color: "#1d4ed8",
  textDecoration: "underline",
};

const hr: React.CSSProperties = {
  borderColor: "#e4e4e7",
  margin: "24px 0 16px",
};

const footer: React.CSSProperties = { padding: "24px 8px 0" };

const mutedLink: React.CSSProperties = {
  color: "#52525b",
  textDecoration: "underline",
};

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
$seed$
);

-- trial-ending
select public.seed_catalogue_template(
  p_slug => $seed$trial-ending$seed$,
  p_listing => $seed${"name":"Trial ending","description":"Reminds users that their free trial is about to end and asks them to add a payment method.","price":"9.00","category":"Billing","author":"Letterpress","preview_image_url":null}$seed$,
  p_variables => $seed${"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"billingUrl":{"type":"string","maxLength":2048,"format":"uri","description":"http(s) URL where the user adds a payment method, opened by the \"Add a payment method\" button."},"userName":{"default":"there","description":"Account owner's first name, used in the greeting (\"Hi Ada,\").","type":"string","maxLength":200},"productName":{"default":"Acme","description":"Your product or company name, shown in the header when there is no logo and throughout the copy.","type":"string","maxLength":200},"logoUrl":{"default":"","description":"http(s) URL of your logo, shown 32 px tall in the header; empty to show the product name as text instead.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]},"daysLeft":{"default":3,"description":"Days left in the trial, shown in the heading and the preview text: 0 or less reads \"today\", 1 \"tomorrow\", more \"in 3 days\".","type":"number"},"trialEndDate":{"default":"","description":"Trial's end date as it should read, added in brackets after the days left, e.g. Friday, March 7; empty to leave it out.","type":"string","maxLength":200},"planName":{"default":"Pro","description":"Name of the plan being trialled, named in the heading and the copy, e.g. Pro.","type":"string","maxLength":200},"planPrice":{"default":"","description":"The plan's price as it should read, in a sentence of its own, e.g. $29/month; empty to leave it out.","type":"string","maxLength":200},"supportEmail":{"default":"support@example.com","description":"Address for questions about plans, shown as a mailto link.","type":"string","maxLength":320},"companyAddress":{"default":"Acme Inc., 123 Market Street, San Francisco, CA 94103","description":"Your postal address, shown in the footer.","type":"string","maxLength":1000},"unsubscribeUrl":{"default":"","description":"http(s) unsubscribe URL, linked as \"Unsubscribe\" in the footer; empty for no link (mail sent to many people should have one).","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]}},"required":["billingUrl"],"additionalProperties":true}$seed$,
  p_code => $seed$import * as React from "react";
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

export type TrialEndingProps = {
  /** Where users add a payment method / pick a plan. Required. */
  billingUrl?: string;
  /** First name of the account owner. */
  userName?: string;
  /** Your product or company name. */
  productName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Days left in the trial. */
  daysLeft?: number;
  /** Pre-formatted trial end date, e.g. "Friday, March 7". Hidden when empty. */
  trialEndDate?: string;
  /** Plan the user is trialling. */
  planName?: string;
  /** Pre-formatted plan price, e.g. "$29/month". Hidden when empty. */
  planPrice?: string;
  /** Address users can contact with questions. */
  supportEmail?: string;
  /** Postal address shown in the footer. */
  companyAddress?: string;
  /** Unsubscribe URL: the footer's link, shown only when given (mail sent to many people should have one). */
  unsubscribeUrl?: string;
};

export default function TrialEnding({
  billingUrl = "https://example.com/billing",
  userName = "there",
  productName = "Acme",
  logoUrl = "",
  daysLeft = 3,
  trialEndDate = "",
  planName = "Pro",
  planPrice = "",
  supportEmail = "support@example.com",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
  unsubscribeUrl = "",
}: TrialEndingProps) {
  const remaining = daysLeft <= 0 ? "today" : daysLeft === 1 ? "tomorrow" : `in ${daysLeft} days`;

  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{`Your ${productName} ${planName} trial ends ${remaining}`}</Preview>
      <Body style={main}>
        <Container style={container}>
          <Section style={header}>
            {logoUrl ? (
              <Img src={logoUrl} height="32" alt={productName} style={logo} />
            ) : (
              <Text style={wordmark}>{productName}</Text>
            )}
          </Section>

          <Section style={card}>
            <Heading as="h1" style={h1}>
              {`Your trial ends ${remaining}`}
            </Heading>
            <Text style={paragraph}>{`Hi ${userName},`}</Text>
            <Text style={paragraph}>
              {`Your free trial of ${productName} ${planName} ends ${remaining}${trialEndDate ? ` (${trialEndDate})` : ""}. To keep your projects, integrations and team access without interruption, add a payment method before then.`}
            </Text>
            {planPrice ? (
              <Text style={paragraph}>
                {`The ${planName} plan is ${planPrice}. You can change or cancel at any time.`}
              </Text>
            ) : null}

            <Section style={buttonSection}>
              <Button href={billingUrl} style={button}>
                Add a payment method
              </Button>
            </Section>

            <Text style={muted}>
              If you do nothing, your account will move to the free plan when the trial ends. Your data stays safe and
              you can upgrade again whenever you like.
            </Text>

            <Hr style={hr} />
            <Text style={muted}>
              Not sure which plan is right for you? Reply to this email or write to{" "}
              <Link href={`mailto:${supportEmail}`} style={link}>
                {supportEmail}
              </Link>{" "}
              and we'll help you choose.
            </Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>
              {`You're receiving this email because you started a ${productName} trial.`}
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

TrialEnding.PreviewProps = {
  billingUrl: "https://acme.example/settings/billing",
  userName: "Ada",
  productName: "Acme",
  logoUrl: "",
  daysLeft: 3,
  trialEndDate: "Friday, March 7",
  planName: "Pro",
  planPrice: "$29/month",
  supportEmail: "sales@acme.example",
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
  unsubscribeUrl: "https://acme.example/unsubscribe?u=42",
} satisfies TrialEndingProps;

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

const card: React.CSSProperties = {
  backgroundColor: "#ffffff",
  border: "1px solid #e4e4e7",
  borderRadius: "12px",
  padding: "32px 28px",
};

const h1: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "24px",
  lineHeight: "32px",
  fontWeight: 700,
  color: "#111827",
};

const paragraph: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "16px",
  lineHeight: "26px",
  color: "#374151",
};

const buttonSection: React.CSSProperties = { margin: "8px 0 24px" };

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

const muted: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const link: React.CSSProperties = {
  color: "#1d4ed8",
  textDecoration: "underline",
};

const hr: React.CSSProperties = {
  borderColor: "#e4e4e7",
  margin: "24px 0 16px",
};

const footer: React.CSSProperties = { padding: "24px 8px 0" };

const mutedLink: React.CSSProperties = {
  color: "#52525b",
  textDecoration: "underline",
};

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
$seed$
);

-- payment-failed
select public.seed_catalogue_template(
  p_slug => $seed$payment-failed$seed$,
  p_listing => $seed${"name":"Payment failed","description":"Dunning email for a declined charge, with the amount, invoice, card and retry date, and a button to update the payment method.","price":"12.00","category":"Billing","author":"Letterpress","preview_image_url":null}$seed$,
  p_variables => $seed${"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"updatePaymentUrl":{"type":"string","maxLength":2048,"format":"uri","description":"http(s) URL where the customer updates their payment method, opened by the \"Update payment method\" button."},"customerName":{"default":"there","description":"Customer's first name, used in the greeting (\"Hi Ada,\").","type":"string","maxLength":200},"productName":{"default":"Acme","description":"Your product or company name, shown in the header when there is no logo and throughout the copy.","type":"string","maxLength":200},"logoUrl":{"default":"","description":"http(s) URL of your logo, shown 32 px tall in the header; empty to show the product name as text instead.","anyOf":[{"type":"string","const":""},{"type":"string","maxLength":2048,"format":"uri"}]},"amount":{"default":0,"description":"Amount of the declined charge, shown with the currency symbol and two decimals (49 reads $49.00).","type":"number"},"currencySymbol":{"default":"$","description":"Symbol placed before the amount, e.g. $ or €.","type":"string","maxLength":200},"invoiceNumber":{"default":"","description":"Invoice number, listed in the details, e.g. INV-2025-0314; empty to leave it out.","type":"string","maxLength":200},"cardLast4":{"default":"","description":"Last four digits of the declined card, shown as •••• 4242; empty to leave it out.","type":"string","maxLength":200},"nextRetryDate":{"default":"","description":"Date of the next automatic retry as it should read, e.g. March 10; empty to leave it out.","type":"string","maxLength":200},"supportEmail":{"default":"billing@example.com","description":"Address for billing questions, shown as a mailto link.","type":"string","maxLength":320},"companyAddress":{"default":"Acme Inc., 123 Market Street, San Francisco, CA 94103","description":"Your postal address, shown in the footer.","type":"string","maxLength":1000}},"required":["updatePaymentUrl"],"additionalProperties":true}$seed$,
  p_code => $seed$import * as React from "react";
import {
  Body,
  Button,
  Column,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Row,
  Section,
  Text,
} from "@react-email/components";

export type PaymentFailedProps = {
  /** Where customers update their card. Required. */
  updatePaymentUrl?: string;
  /** Customer's first name. */
  customerName?: string;
  /** Your product or company name. */
  productName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Amount that failed to charge. */
  amount?: number;
  /** Currency symbol placed before the amount. */
  currencySymbol?: string;
  /** Invoice number. Hidden when empty. */
  invoiceNumber?: string;
  /** Last four digits of the card that was declined. Hidden when empty. */
  cardLast4?: string;
  /** Pre-formatted date of the next automatic retry. Hidden when empty. */
  nextRetryDate?: string;
  /** Address customers can contact about billing. */
  supportEmail?: string;
  /** Postal address shown in the footer. */
  companyAddress?: string;
};

export default function PaymentFailed({
  updatePaymentUrl = "https://example.com/billing/payment-method",
  customerName = "there",
  productName = "Acme",
  logoUrl = "",
  amount = 0,
  currencySymbol = "$",
  invoiceNumber = "",
  cardLast4 = "",
  nextRetryDate = "",
  supportEmail = "billing@example.com",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: PaymentFailedProps) {
  const formattedAmount = `${currencySymbol}${amount.toFixed(2)}`;
  const details: { label: string; value: string }[] = [{ label: "Amount due", value: formattedAmount }];
  if (invoiceNumber) details.push({ label: "Invoice", value: invoiceNumber });
  if (cardLast4) details.push({ label: "Card", value: `•••• ${cardLast4}` });
  if (nextRetryDate) details.push({ label: "Next retry", value: nextRetryDate });

  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{`Action needed: we couldn't process your ${productName} payment of ${formattedAmount}`}</Preview>
      <Body style={main}>
        <Container style={container}>
          <Section style={header}>
            {logoUrl ? (
              <Img src={logoUrl} height="32" alt={productName} style={logo} />
            ) : (
              <Text style={wordmark}>{productName}</Text>
            )}
          </Section>

          <Section style={card}>
            <Heading as="h1" style={h1}>
              We couldn't process your payment
            </Heading>
            <Text style={paragraph}>{`Hi ${customerName},`}</Text>
            <Text style={paragraph}>
              {`We tried to charge ${formattedAmount} for your ${productName} subscription${cardLast4 ? ` to the card ending in ${cardLast4}` : ""}, but the payment was declined. This usually happens when a card has expired or the bank flagged the charge.`}
            </Text>

            <Section style={detailsBox}>
              {details.map((detail) => (
                <Row key={detail.label}>
                  <Column style={labelColumn}>
                    <Text style={label}>{detail.label}</Text>
                  </Column>
                  <Column>
                    <Text style={value}>{detail.value}</Text>
                  </Column>
                </Row>
              ))}
            </Section>

            <Section style={buttonSection}>
              <Button href={updatePaymentUrl} style={button}>
                Update payment method
              </Button>
            </Section>

            <Text style={muted}>
              {nextRetryDate
                ? `We'll try again automatically on ${nextRetryDate}. Updating your card now keeps your account active without interruption.`
                : "Updating your card now keeps your account active without interruption."}
            </Text>

            <Hr style={hr} />
            <Text style={muted}>
              Already updated your details, or think this is a mistake? Contact{" "}
              <Link href={`mailto:${supportEmail}`} style={link}>
                {supportEmail}
              </Link>
              .
            </Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>
              {`You're receiving this email because you have an active ${productName} subscription.`}
            </Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

PaymentFailed.PreviewProps = {
  updatePaymentUrl: "https://acme.example/settings/billing/payment-method",
  customerName: "Ada",
  productName: "Acme",
  logoUrl: "",
  amount: 49,
  currencySymbol: "$",
  invoiceNumber: "INV-2025-0314",
  cardLast4: "4242",
  nextRetryDate: "March 10",
  supportEmail: "billing@acme.example",
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies PaymentFailedProps;

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

const card: React.CSSProperties = {
  backgroundColor: "#ffffff",
  border: "1px solid #e4e4e7",
  borderRadius: "12px",
  padding: "32px 28px",
};

const h1: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "24px",
  lineHeight: "32px",
  fontWeight: 700,
  color: "#111827",
};

const paragraph: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "16px",
  lineHeight: "26px",
  color: "#374151",
};

const detailsBox: React.CSSProperties = {
  backgroundColor: "#f9fafb",
  border: "1px solid #e4e4e7",
  borderRadius: "8px",
  padding: "12px 16px",
  marginBottom: "24px",
};

const labelColumn: React.CSSProperties = {
  width: "42%",
  verticalAlign: "top",
  paddingRight: "12px",
};

const label: React.CSSProperties = {
  margin: "6px 0",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const value: React.CSSProperties = {
  margin: "6px 0",
  fontSize: "14px",
  lineHeight: "22px",
  fontWeight: 600,
  color: "#111827",
};

const buttonSection: React.CSSProperties = { margin: "0 0 24px" };

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

const muted: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const link: React.CSSProperties = {
  color: "#1d4ed8",
  textDecoration: "underline",
};

const hr: React.CSSProperties = {
  borderColor: "#e4e4e7",
  margin: "24px 0 16px",
};

const footer: React.CSSProperties = { padding: "24px 8px 0" };

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
$seed$
);
