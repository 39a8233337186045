/**
 * Export to a Pyroscope server: the Pyroscope agent's own async-profiler session,
 * labelled per span so Grafana links traces to profiles, and parsed locally too so that
 * the endpoint keeps working.
 * <p>
 * May import {@code profile}, {@code sampling}, {@code tracking} and {@code upload}.
 */
package dev.spanprofile.pyroscope;
