/**
 * Every request of one local-root span name over a window, stored or not: latency
 * statistics per minute and band, and the merged profile of the requests whose samples
 * were complete, within half of {@code max-memory}.
 * <p>
 * May import {@code profile} and {@code store}.
 */
package dev.spanprofile.aggregate;
