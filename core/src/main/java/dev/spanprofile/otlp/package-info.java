/**
 * Export of completed requests' profiles as OTLP profiles, each sample linked to its
 * trace and span.
 * <p>
 * May import {@code profile}, {@code store} and {@code upload}.
 */
package dev.spanprofile.otlp;
