import * as React from "react";
import Welcome, { type WelcomeProps } from "../../welcome";

/** The welcome email in de, for React Email's preview server (npm run email). */
export default function WelcomeDe(props: WelcomeProps) {
  return <Welcome {...props} />;
}

WelcomeDe.PreviewProps = {
  ...Welcome.PreviewProps,
  locale: "de",
  userName: "Lena",
  companyAddress: "Acme GmbH, Unter den Linden 21, 10117 Berlin",
} satisfies WelcomeProps;
