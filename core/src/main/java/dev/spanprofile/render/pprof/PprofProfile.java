package dev.spanprofile.render.pprof;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import dev.spanprofile.render.pprof.proto.PprofProtos.Function;
import dev.spanprofile.render.pprof.proto.PprofProtos.Label;
import dev.spanprofile.render.pprof.proto.PprofProtos.Line;
import dev.spanprofile.render.pprof.proto.PprofProtos.Location;
import dev.spanprofile.render.pprof.proto.PprofProtos.Profile;
import dev.spanprofile.render.pprof.proto.PprofProtos.Sample;
import dev.spanprofile.render.pprof.proto.PprofProtos.ValueType;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;

/**
 * Span profiles in the pprof format, gzip-compressed as {@code go tool pprof}, Speedscope
 * and Pyroscope read it. Every sample carries {@code span_id}, {@code span_name} and
 * {@code trace_id} labels, so a trace's merged profile can still be split by span
 * ({@code go tool pprof -tagfocus span_name=...}).
 */
public final class PprofProfile {

	private PprofProfile() {
	}

	/**
	 * @param spans the spans and their samples
	 * @param frames names of the frame ids in the trees
	 * @param event what a sample measures: cpu, wall, alloc, lock or wait (lock and wait
	 * with {@code contentions/count} beside {@code delay/nanoseconds} when the trees
	 * count their waits, see {@link StackTree#events()})
	 * @param intervalNanos time one sample stands for (cpu, wall); for alloc, lock and
	 * wait, the configured period (bytes between allocation samples, the lock or wait
	 * threshold)
	 * @param startEpochNanos when the profiled period began
	 * @param durationNanos how long it lasted
	 * @return the gzip'd protobuf
	 */
	public static byte[] gzip(List<SpanSamples> spans, FrameTable frames, String event, long intervalNanos,
			long startEpochNanos, long durationNanos) {
		return compress(build(spans, frames, event, intervalNanos, startEpochNanos, durationNanos).toByteArray());
	}

	static Profile build(List<SpanSamples> spans, FrameTable frames, String event, long intervalNanos,
			long startEpochNanos, long durationNanos) {
		Strings strings = new Strings();
		Profile.Builder profile = Profile.newBuilder();
		// Allocation, lock and wait samples carry their measure as weight: one value,
		// named as Go's pprof names them (a wait of any kind is what Go's block profile
		// calls a delay).
		String weighted = switch (event) {
			case "alloc" -> "alloc_space";
			case "lock", "wait" -> "delay";
			default -> null;
		};
		// Lock and wait profiles say how many waits made up the delay, as Go's contention
		// profiles do; where the waits were not counted (per-name aggregates keep the
		// delay only) there is no count to give.
		boolean contentions = (event.equals("lock") || event.equals("wait"))
				&& spans.stream().allMatch((span) -> span.samples().totalSamples() == 0 || span.samples().events() > 0);
		if (weighted != null) {
			String unit = event.equals("alloc") ? "bytes" : "nanoseconds";
			if (contentions) {
				profile.addSampleType(valueType(strings, "contentions", "count"));
			}
			profile.addSampleType(valueType(strings, weighted, unit));
			profile.setPeriodType(valueType(strings, weighted, unit));
			profile.setPeriod(intervalNanos);
			profile.setDefaultSampleType(contentions ? 1 : 0);
		}
		else {
			profile.addSampleType(valueType(strings, "samples", "count"));
			profile.addSampleType(valueType(strings, event, "nanoseconds"));
			profile.setPeriodType(valueType(strings, event, "nanoseconds"));
			profile.setPeriod(intervalNanos);
			profile.setDefaultSampleType(1);
		}
		profile.setTimeNanos(startEpochNanos);
		profile.setDurationNanos(durationNanos);
		long spanIdKey = strings.index("span_id");
		long spanNameKey = strings.index("span_name");
		long traceIdKey = strings.index("trace_id");
		Map<Integer, Long> locations = new HashMap<>();
		for (SpanSamples span : spans) {
			List<Label> labels = List.of(stringLabel(spanIdKey, strings.index(span.spanId())),
					stringLabel(spanNameKey, strings.index(span.spanName())),
					stringLabel(traceIdKey, strings.index(span.traceId())));
			span.samples().visit((path, depth, total, self, selfEvents) -> {
				if (self == 0) {
					return;
				}
				Sample.Builder sample = Sample.newBuilder();
				// pprof lists a stack leaf first.
				for (int i = depth - 1; i >= 0; i--) {
					sample.addLocationId(location(profile, locations, strings, frames, path[i]));
				}
				if (contentions) {
					sample.addValue(selfEvents);
				}
				sample.addValue(self);
				if (weighted == null) {
					sample.addValue(self * intervalNanos);
				}
				sample.addAllLabel(labels);
				profile.addSample(sample);
			});
		}
		profile.addComment(strings
			.index("spanprofile: samples attributed to the OpenTelemetry span active on the " + "sampled thread"));
		profile.addAllStringTable(strings.table);
		return profile.build();
	}

	private static long location(Profile.Builder profile, Map<Integer, Long> locations, Strings strings,
			FrameTable frames, int frame) {
		Long known = locations.get(frame);
		if (known != null) {
			return known;
		}
		long id = locations.size() + 1;
		long name = strings.index(frames.name(frame));
		profile.addFunction(Function.newBuilder().setId(id).setName(name).setSystemName(name));
		profile.addLocation(Location.newBuilder().setId(id).addLine(Line.newBuilder().setFunctionId(id)));
		locations.put(frame, id);
		return id;
	}

	private static ValueType valueType(Strings strings, String type, String unit) {
		return ValueType.newBuilder().setType(strings.index(type)).setUnit(strings.index(unit)).build();
	}

	private static Label stringLabel(long key, long value) {
		return Label.newBuilder().setKey(key).setStr(value).build();
	}

	private static byte[] compress(byte[] bytes) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 4 + 64);
		try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
			gzip.write(bytes);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toByteArray();
	}

	/**
	 * The samples of one span.
	 *
	 * @param traceId its trace
	 * @param spanId its id
	 * @param spanName its name
	 * @param samples its stacks
	 */
	public record SpanSamples(String traceId, String spanId, String spanName, StackTree samples) {
	}

	/**
	 * The profile's string table; index 0 is the empty string, as the format requires.
	 */
	private static final class Strings {

		final List<String> table = new java.util.ArrayList<>(List.of(""));

		final Map<String, Long> indices = new HashMap<>(Map.of("", 0L));

		long index(String value) {
			String text = (value != null) ? value : "";
			return this.indices.computeIfAbsent(text, (key) -> {
				this.table.add(key);
				return (long) (this.table.size() - 1);
			});
		}

	}

}
