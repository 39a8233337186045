package dev.spanprofile.actuate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import dev.spanprofile.EngineStatus;
import dev.spanprofile.SpanProfiler;
import dev.spanprofile.attribution.AttributionStats;
import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.render.FlameGraphTree;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StackTree;
import dev.spanprofile.tracking.MonotonicEpoch;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;

/**
 * {@code /actuator/spanprofile}: the recent and running spans, and the flame graph of any one of them.
 * <p>
 * Query parameters are taken as strings and checked here, so that bad input gets a 400 with a message that says
 * what is wrong instead of a generic error.
 */
@WebEndpoint(id = "spanprofile")
public class SpanProfileEndpoint {

	static final int DEFAULT_LIMIT = 100;

	private static final Pattern SPAN_ID = Pattern.compile("[0-9a-fA-F]{16}");

	private static final int MAX_ECHO = 64;

	private final SpanProfiler profiler;

	public SpanProfileEndpoint(SpanProfiler profiler) {
		this.profiler = profiler;
	}

	/**
	 * Recent and in-flight spans, newest first.
	 * @param limit maximum number of spans listed (default 100)
	 * @param name only spans whose name contains this, ignoring case
	 * @param minDurationMillis only spans at least this long (so far, for running ones)
	 */
	@ReadOperation
	public WebEndpointResponse<Map<String, Object>> spans(@Nullable String limit, @Nullable String name,
			@Nullable String minDurationMillis) {
		int maxCount;
		double minMillis;
		try {
			maxCount = parseLimit(limit);
			minMillis = parseMinDuration(minDurationMillis);
		}
		catch (IllegalArgumentException ex) {
			return error(400, ex.getMessage());
		}
		long now = MonotonicEpoch.nowEpochNanos();
		long complete = this.profiler.completeUpToEpochNanos();
		String nameFilter = (name != null && !name.isBlank()) ? name.toLowerCase(Locale.ROOT) : null;
		long minNanos = (long) (minMillis * 1_000_000);
		Predicate<SpanRecord> filter = (record) -> (nameFilter == null
				|| record.name().toLowerCase(Locale.ROOT).contains(nameFilter))
				&& record.durationNanos(now) >= minNanos;
		boolean rootSpanOnly = this.profiler.settings().store().rootSpanOnly();
		List<Map<String, Object>> spans = new ArrayList<>();
		for (SpanRecord record : this.profiler.store().recent(filter, maxCount)) {
			spans.add(SpanDescriptions.describe(record, now, complete, !rootSpanOnly));
		}
		Map<String, Object> body = engineDescription();
		body.put("spans", spans);
		return new WebEndpointResponse<>(body, 200);
	}

	/**
	 * The flame graph of one span: JSON tree by default, collapsed stacks for {@code Accept: text/plain}. Without
	 * root-span-only attribution a span's graph includes its local descendants; with it, a child span is served its
	 * local root's graph, which holds its samples.
	 */
	@ReadOperation(producesFrom = FlameGraphFormat.class)
	public WebEndpointResponse<Object> flameGraph(@Selector String id, FlameGraphFormat format) {
		if (!SPAN_ID.matcher(id).matches()) {
			return error(400, "'" + echo(id) + "' is not a span id: expected 16 hexadecimal characters");
		}
		String spanId = id.toLowerCase(Locale.ROOT);
		SpanRecord requested = this.profiler.store().find(spanId);
		if (requested == null) {
			return error(404, "No span " + spanId + " is stored: it was not sampled by the tracer, was evicted, "
					+ "or ran before profiling started");
		}
		boolean rootSpanOnly = this.profiler.settings().store().rootSpanOnly();
		SpanRecord profiled = rootSpanOnly ? requested.localRoot() : requested;
		StackTree tree = rootSpanOnly ? profiled.ownSamples() : profiled.inclusiveSamples();
		if (format == FlameGraphFormat.COLLAPSED) {
			return new WebEndpointResponse<>(CollapsedStacks.render(tree, this.profiler.store().frames()), 200,
					FlameGraphFormat.COLLAPSED.getProducedMimeType());
		}
		long now = MonotonicEpoch.nowEpochNanos();
		Map<String, Object> body = engineDescription();
		body.put("span", SpanDescriptions.describe(requested, now, this.profiler.completeUpToEpochNanos(), !rootSpanOnly));
		if (profiled != requested) {
			body.put("attributedTo", profiled.spanId());
			body.put("note", "With spanprofile.root-span-only=true samples are attributed to the local root span "
					+ profiled.spanId() + "; this is its flame graph");
		}
		body.put("samples", tree.totalSamples());
		body.put("flameGraph", FlameGraphTree.render(profiled.name(), tree, this.profiler.store().frames()));
		return new WebEndpointResponse<>(body, 200, FlameGraphFormat.JSON.getProducedMimeType());
	}

	/**
	 * Stop or resume profiling without restarting the application ({@code POST {"enabled": false}}). Stored profiles
	 * stay readable while stopped; spans that start meanwhile are not stored. Like every write operation it is
	 * unavailable with {@code management.endpoint.spanprofile.access=read-only}.
	 * @param enabled {@code true} or {@code false}; taken as a string so that anything else gets a 400 that says why
	 * @return the engine status after the change; {@code running} is false with a {@code problem} when the profiler
	 * could not start
	 */
	@WriteOperation
	public WebEndpointResponse<Map<String, Object>> setEnabled(@Nullable String enabled) {
		if (enabled == null || enabled.isBlank()) {
			return error(400, "Expected a JSON body {\"enabled\": true} or {\"enabled\": false}");
		}
		String value = enabled.trim();
		if (value.equalsIgnoreCase("true")) {
			this.profiler.start();
		}
		else if (value.equalsIgnoreCase("false")) {
			this.profiler.stop();
		}
		else {
			return error(400, "enabled must be true or false, was '" + echo(value) + "'");
		}
		return new WebEndpointResponse<>(engineDescription(), 200);
	}

	private Map<String, Object> engineDescription() {
		EngineStatus status = this.profiler.status();
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("engine", status.engine());
		body.put("event", status.event());
		body.put("intervalMillis", this.profiler.settings().sampler().interval().toNanos() / 1_000_000.0);
		body.put("running", status.running());
		if (status.problem() != null) {
			body.put("problem", status.problem());
		}
		body.put("rootSpanOnly", this.profiler.settings().store().rootSpanOnly());
		AttributionStats stats = this.profiler.attributionStats();
		Map<String, Object> samples = new LinkedHashMap<>();
		samples.put("attributed", stats.attributed());
		samples.put("outsideSpans", stats.outsideSpans());
		samples.put("unknown", stats.unknown());
		body.put("samples", samples);
		return body;
	}

	private int parseLimit(@Nullable String limit) {
		if (limit == null || limit.isBlank()) {
			return DEFAULT_LIMIT;
		}
		try {
			int value = Integer.parseInt(limit.trim());
			if (value < 1) {
				throw new IllegalArgumentException("limit must be at least 1, was " + value);
			}
			return value;
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("limit must be a whole number, was '" + echo(limit) + "'");
		}
	}

	private double parseMinDuration(@Nullable String minDurationMillis) {
		if (minDurationMillis == null || minDurationMillis.isBlank()) {
			return 0;
		}
		try {
			double value = Double.parseDouble(minDurationMillis.trim());
			if (!(value >= 0) || Double.isInfinite(value)) {
				throw new IllegalArgumentException("minDurationMillis must be zero or more, was " + echo(minDurationMillis));
			}
			return value;
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(
					"minDurationMillis must be a number of milliseconds, was '" + echo(minDurationMillis) + "'");
		}
	}

	/** Input quoted back to the caller, shortened so a huge parameter is not mirrored whole. */
	private static String echo(String input) {
		return (input.length() > MAX_ECHO) ? input.substring(0, MAX_ECHO) + "..." : input;
	}

	private static <T> WebEndpointResponse<T> error(int status, String message) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("status", status);
		body.put("error", (status == 404) ? "Not Found" : "Bad Request");
		body.put("message", message);
		@SuppressWarnings("unchecked")
		T typed = (T) body;
		// Errors are JSON whatever was asked for: a plain-text client still gets a readable message.
		return new WebEndpointResponse<>(typed, status, FlameGraphFormat.JSON.getProducedMimeType());
	}

}
