import * as React from "react";
import OrderShipped, { type OrderShippedProps } from "../../order-shipped";

/** The order-shipped email in fr, for React Email's preview server (npm run email). */
export default function OrderShippedFr(props: OrderShippedProps) {
  return <OrderShipped {...props} />;
}

OrderShippedFr.PreviewProps = {
  ...OrderShipped.PreviewProps,
  locale: "fr",
  customerName: "Camille",
  estimatedDelivery: "",
  estimatedDeliveryDate: "2025-03-06",
  shippingAddress: "12 rue de Rivoli, 75004 Paris, France",
  companyAddress: "Acme SAS, 8 rue de la Paix, 75002 Paris",
} satisfies OrderShippedProps;
