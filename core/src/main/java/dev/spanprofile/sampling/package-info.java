/**
 * Where samples come from: async-profiler
 * ({@link dev.spanprofile.sampling.AsyncProfilerEngine} over a
 * {@link dev.spanprofile.sampling.ChunkedRecording}), JDK Flight Recorder
 * ({@link dev.spanprofile.sampling.JfrStreamingEngine}) and the JDK's wait events beside
 * either ({@link dev.spanprofile.sampling.JfrWaitEngine}); each hands parsed samples with
 * thread and time to a {@link dev.spanprofile.sampling.SampleSink}.
 * <p>
 * May import {@code profile} and {@code tracking} (the wall-clock thread filter follows
 * activations); never the join, the store or the views.
 */
package dev.spanprofile.sampling;
