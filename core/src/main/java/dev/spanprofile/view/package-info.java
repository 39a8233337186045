/**
 * What the endpoint shows, without a web framework: a query in ({@code *Query}, parsed
 * and checked, a {@link dev.spanprofile.view.ViewException} being a 400 or 404), a view
 * out that renders itself as JSON, HTML, collapsed stacks or pprof.
 * <p>
 * The top of core: may import every other core package.
 */
package dev.spanprofile.view;
