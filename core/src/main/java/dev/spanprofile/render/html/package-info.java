/**
 * The self-contained HTML pages (no CDN, a strict Content-Security-Policy): a flame
 * graph's layout ({@link dev.spanprofile.render.html.FlameGraphModel}) and its page, the
 * span index and the tables.
 * <p>
 * May import {@code profile} and {@code render}.
 */
package dev.spanprofile.render.html;
