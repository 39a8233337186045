/**
 * From a call tree to what people and tools read: collapsed stacks, nested JSON, where a
 * frame's code comes from ({@link dev.spanprofile.render.FrameClassifier}), self time and
 * where a request's time went ({@link dev.spanprofile.render.TimeBreakdown}); pages in
 * {@code render.html}, pprof in {@code render.pprof}.
 * <p>
 * May import {@code profile} only.
 */
package dev.spanprofile.render;
