/**
 * The pprof protobuf of a call tree, for {@code go tool pprof} and Pyroscope.
 * <p>
 * May import {@code profile} and {@code render}.
 */
package dev.spanprofile.render.pprof;
