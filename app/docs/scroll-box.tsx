"use client";
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from "react";

/**
 * A table or code block that may be wider than the screen. While it scrolls sideways it takes focus (the arrow keys
 * then scroll it) and has a name to be announced by; where it fits it is no tab stop (the page has over a hundred).
 */
export function ScrollBox({
  as: Box = "div",
  name,
  className,
  style,
  children,
}: {
  as?: "div" | "pre";
  name: string;
  className: string;
  style?: CSSProperties;
  children: ReactNode;
}) {
  // Typed as both: it is the ref of whichever element `as` names.
  const box = useRef<HTMLDivElement & HTMLPreElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = box.current!;
    const observer = new ResizeObserver(() => setScrolls(element.scrollWidth > element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <Box
      ref={box}
      className={className}
      style={style}
      {...(scrolls && { tabIndex: 0, role: "group", "aria-label": name })}
    >
      {children}
    </Box>
  );
}
