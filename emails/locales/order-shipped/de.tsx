import * as React from "react";
import OrderShipped, { type OrderShippedProps } from "../../order-shipped";

/** The order-shipped email in de, for React Email's preview server (npm run email). */
export default function OrderShippedDe(props: OrderShippedProps) {
  return <OrderShipped {...props} />;
}

OrderShippedDe.PreviewProps = {
  ...OrderShipped.PreviewProps,
  locale: "de",
  customerName: "Lena",
  estimatedDelivery: "",
  estimatedDeliveryDate: "2025-03-06",
  shippingAddress: "Friedrichstraße 68, 10117 Berlin, Deutschland",
  companyAddress: "Acme GmbH, Unter den Linden 21, 10117 Berlin",
} satisfies OrderShippedProps;
