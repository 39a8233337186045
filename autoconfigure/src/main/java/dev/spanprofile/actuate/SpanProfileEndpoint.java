package dev.spanprofile.actuate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import dev.spanprofile.EngineStatus;
import dev.spanprofile.SpanProfiler;
import dev.spanprofile.attribution.AttributionStats;
import dev.spanprofile.render.FlameGraphTree;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.SampleKind;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StackTree;
import dev.spanprofile.tracking.MonotonicEpoch;
import io.opentelemetry.api.trace.Span;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;

/**
 * {@code /actuator/spanprofile}: the recent and running spans, and the flame graph of any one of them or of a whole
 * trace, as JSON, collapsed stacks, an interactive HTML page or pprof.
 * <p>
 * Query parameters are taken as strings and checked here, so that bad input gets a 400 with a message that says
 * what is wrong instead of a generic error. A {@code format} parameter overrides the {@code Accept} header, for
 * links and curl.
 */
@WebEndpoint(id = "spanprofile")
public class SpanProfileEndpoint {

	static final int DEFAULT_LIMIT = 100;

	private static final Pattern SPAN_ID = Pattern.compile("[0-9a-fA-F]{16}");

	private static final Pattern TRACE_ID = Pattern.compile("[0-9a-fA-F]{32}");

	private static final int MAX_ECHO = 64;

	private final SpanProfiler profiler;

	private final ProfileRenderer renderer;

	public SpanProfileEndpoint(SpanProfiler profiler) {
		this(profiler, List.of());
	}

	/**
	 * @param applicationPackages the application's own packages, whose frames the pages colour as application code
	 */
	public SpanProfileEndpoint(SpanProfiler profiler, List<String> applicationPackages) {
		this.profiler = profiler;
		this.renderer = new ProfileRenderer(profiler, new FrameClassifier(applicationPackages));
	}

	/**
	 * Recent and in-flight spans, newest first.
	 * @param limit maximum number of spans listed (default 100)
	 * @param name only spans whose name contains this, ignoring case
	 * @param minDurationMillis only spans at least this long (so far, for running ones)
	 * @param format {@code json} or {@code html}, overriding the {@code Accept} header
	 * @param accepted the format the {@code Accept} header asks for
	 */
	@ReadOperation(producesFrom = SpanListFormat.class)
	public WebEndpointResponse<Object> spans(@Nullable String limit, @Nullable String name,
			@Nullable String minDurationMillis, @Nullable String format, SpanListFormat accepted) {
		int maxCount;
		double minMillis;
		SpanListFormat listFormat;
		try {
			listFormat = SpanListFormat.resolve(format, accepted);
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
		// The request asking is itself a running span until it ends (and is then dropped as an actuator request).
		String asking = askingRequest();
		Predicate<SpanRecord> filter = (record) -> (nameFilter == null
				|| record.name().toLowerCase(Locale.ROOT).contains(nameFilter))
				&& record.durationNanos(now) >= minNanos && !record.localRoot().spanId().equals(asking);
		boolean rootSpanOnly = this.profiler.settings().store().rootSpanOnly();
		List<SpanRecord> records = this.profiler.store().recent(filter, maxCount);
		Map<String, Object> body = engineDescription();
		if (listFormat == SpanListFormat.HTML) {
			return new WebEndpointResponse<>(this.renderer.indexPage(records, body, (name != null) ? name : ""), 200,
					SpanListFormat.HTML.getProducedMimeType());
		}
		List<Map<String, Object>> spans = new ArrayList<>();
		for (SpanRecord record : records) {
			Map<String, Object> span = SpanDescriptions.describe(record, now, complete, !rootSpanOnly, sampledKinds());
			if (record.inFlight() && SpanNames.isPlaceholder(record.name())) {
				span.put("displayName", this.renderer.displayName(record, this.renderer.samplesOf(record)));
			}
			spans.add(span);
		}
		body.put("spans", spans);
		return new WebEndpointResponse<>(body, 200, SpanListFormat.JSON.getProducedMimeType());
	}

	/**
	 * The flame graph of one span or, for a 32-hex trace id, of all local spans of that trace merged (each span a
	 * child of the root). JSON tree by default, collapsed stacks for {@code Accept: text/plain}, an interactive page
	 * for {@code text/html}, pprof for {@code application/octet-stream}; {@code format} overrides the header. Without
	 * root-span-only attribution a span's graph includes its local descendants; with it, a child span is served its
	 * local root's graph, which holds its samples.
	 * @param id a span id (16 hexadecimal characters) or trace id (32)
	 * @param format {@code json}, {@code collapsed}, {@code html} or {@code pprof}, overriding the {@code Accept}
	 * header
	 * @param event which flame graph when several events are sampled: {@code cpu} or {@code wall} (default: cpu
	 * when sampled)
	 * @param accepted the format the {@code Accept} header asks for
	 */
	@ReadOperation(producesFrom = FlameGraphFormat.class)
	public WebEndpointResponse<Object> flameGraph(@Selector String id, @Nullable String format, @Nullable String event,
			FlameGraphFormat accepted) {
		FlameGraphFormat chosen;
		SampleKind kind;
		try {
			chosen = FlameGraphFormat.resolve(format, accepted);
			kind = sampleKind(event);
		}
		catch (IllegalArgumentException ex) {
			return error(400, ex.getMessage());
		}
		ProfileSubject subject;
		if (TRACE_ID.matcher(id).matches()) {
			subject = traceSubject(id.toLowerCase(Locale.ROOT), kind);
			if (subject == null) {
				return error(404, "No span of trace " + id.toLowerCase(Locale.ROOT) + " is stored: it was not sampled "
						+ "by the tracer, did not pass through this process, was evicted, or ran before profiling started");
			}
		}
		else if (SPAN_ID.matcher(id).matches()) {
			subject = spanSubject(id.toLowerCase(Locale.ROOT), kind);
			if (subject == null) {
				return error(404, "No span " + id.toLowerCase(Locale.ROOT) + " is stored: it was not sampled by the "
						+ "tracer, was evicted, or ran before profiling started");
			}
		}
		else {
			return error(400, "'" + echo(id) + "' is not a span id: expected 16 hexadecimal characters "
					+ "(or 32 for a trace id)");
		}
		return switch (chosen) {
			case COLLAPSED -> new WebEndpointResponse<>(this.renderer.collapsed(subject), 200,
					FlameGraphFormat.COLLAPSED.getProducedMimeType());
			case HTML -> new WebEndpointResponse<>(this.renderer.html(subject), 200,
					FlameGraphFormat.HTML.getProducedMimeType());
			case PPROF -> new WebEndpointResponse<>(this.renderer.pprof(subject), 200,
					FlameGraphFormat.PPROF.getProducedMimeType());
			case JSON -> new WebEndpointResponse<>(json(subject), 200, FlameGraphFormat.JSON.getProducedMimeType());
		};
	}

	private @Nullable ProfileSubject spanSubject(String spanId, SampleKind kind) {
		SpanRecord requested = this.profiler.store().find(spanId);
		if (requested == null) {
			return null;
		}
		boolean rootSpanOnly = this.profiler.settings().store().rootSpanOnly();
		SpanRecord profiled = rootSpanOnly ? requested.localRoot() : requested;
		StackTree tree = this.renderer.samplesOf(profiled, kind);
		return new ProfileSubject(requested, requested.traceId(),
				List.of(new ProfileSubject.Part(profiled, this.renderer.displayName(profiled, tree), tree)), kind);
	}

	private @Nullable ProfileSubject traceSubject(String traceId, SampleKind kind) {
		List<ProfileSubject.Part> parts = new ArrayList<>();
		for (SpanRecord record : this.profiler.store().trace(traceId)) {
			// Local roots' samples (with their descendants' when attribution is per span) cover the whole trace here.
			if (record.isLocalRoot()) {
				StackTree tree = this.renderer.samplesOf(record, kind);
				parts.add(new ProfileSubject.Part(record, this.renderer.displayName(record, tree), tree));
			}
		}
		return parts.isEmpty() ? null : new ProfileSubject(null, traceId, parts, kind);
	}

	private Map<String, Object> json(ProfileSubject subject) {
		Map<String, Object> body = engineDescription();
		body.put("flameGraphEvent", subject.kind().id());
		if (subject.isTrace()) {
			return this.renderer.traceJson(subject, body);
		}
		SpanRecord requested = subject.requested();
		ProfileSubject.Part part = subject.parts().get(0);
		SpanRecord profiled = part.span();
		boolean rootSpanOnly = this.profiler.settings().store().rootSpanOnly();
		long now = MonotonicEpoch.nowEpochNanos();
		long complete = this.profiler.completeUpToEpochNanos();
		Map<String, Object> span = SpanDescriptions.describe(requested, now, complete, !rootSpanOnly, sampledKinds());
		if (requested == profiled && !part.name().equals(requested.name())) {
			span.put("displayName", part.name());
		}
		body.put("span", span);
		if (profiled != requested) {
			body.put("attributedTo", profiled.spanId());
			body.put("note", "With spanprofile.root-span-only=true samples are attributed to the local root span "
					+ profiled.spanId() + "; this is its flame graph");
		}
		body.put("samples", part.samples().totalSamples());
		String empty = EmptyProfiles.explain(profiled, part.samples().totalSamples(),
				!profiled.inFlight() && profiled.endEpochNanos() <= complete, this.profiler.status(),
				this.profiler.settings().sampler().interval().toNanos() / 1_000_000.0,
				this.profiler.settings().dumpInterval().toMillis(), now);
		if (empty != null) {
			Map<String, Object> emptyProfile = new LinkedHashMap<>();
			emptyProfile.put("reason", empty);
			emptyProfile.put("durationMillis", profiled.durationNanos(now) / 1_000_000.0);
			emptyProfile.put("intervalMillis", this.profiler.settings().sampler().interval().toNanos() / 1_000_000.0);
			emptyProfile.put("localRootSpanId", requested.localRoot().spanId());
			body.put("emptyProfile", emptyProfile);
		}
		body.put("flameGraph", FlameGraphTree.render(part.name(), part.samples(), this.profiler.store().frames()));
		return body;
	}

	/** The local root span id of the request being served, or "" when there is none. */
	private String askingRequest() {
		SpanRecord current = this.profiler.store().find(Span.current().getSpanContext().getSpanId());
		return (current != null) ? current.localRoot().spanId() : "";
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
		if (status.note() != null) {
			body.put("note", status.note());
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

	private Set<SampleKind> sampledKinds() {
		return this.profiler.settings().sampler().kinds();
	}

	private SampleKind sampleKind(@Nullable String event) {
		SamplerSettings sampler = this.profiler.settings().sampler();
		if (event == null || event.isBlank()) {
			return sampler.primaryKind();
		}
		for (SampleKind kind : sampler.kinds()) {
			if (kind.id().equalsIgnoreCase(event.trim())) {
				return kind;
			}
		}
		String requested = event.trim().toLowerCase(Locale.ROOT);
		if (requested.equals("cpu") || requested.equals("wall")) {
			throw new IllegalArgumentException(
					"No " + requested + " samples are taken: spanprofile.event is " + sampler.eventsDescription());
		}
		throw new IllegalArgumentException("event must be cpu or wall, was '" + echo(event) + "'");
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

	/**
	 * Input quoted back to the caller, shortened so a huge parameter is not mirrored whole, and with anything but
	 * ASCII letters, digits and a few marks shown as {@code ?}: a client that renders the message as HTML, or a log
	 * that records it, must never get markup or line breaks from it.
	 */
	static String echo(String input) {
		StringBuilder shown = new StringBuilder(Math.min(input.length(), MAX_ECHO) + 3);
		input.codePoints().limit(MAX_ECHO).forEach((c) -> shown.append(isPlain(c) ? (char) c : '?'));
		if (input.codePointCount(0, input.length()) > MAX_ECHO) {
			shown.append("...");
		}
		return shown.toString();
	}

	private static boolean isPlain(int c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
				|| " .,:;_+-=()[]".indexOf(c) >= 0;
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
