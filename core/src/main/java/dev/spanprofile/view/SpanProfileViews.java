package dev.spanprofile.view;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.startup.StartupRecording;
import dev.spanprofile.startup.StartupStep;
import dev.spanprofile.aggregate.FrameSpans;
import dev.spanprofile.aggregate.NameAggregates;
import dev.spanprofile.aggregate.NameProfile;
import dev.spanprofile.aggregate.NameSummary;
import dev.spanprofile.aggregate.ProfileDiff;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.profile.StackTree;
import io.opentelemetry.api.trace.Span;

/**
 * What the endpoint shows, without the web: a query in, a view out, or a
 * {@link ViewException} saying why not. A web adapter only binds parameters, picks the
 * format and maps the exception to a status.
 */
public final class SpanProfileViews {

	private final SpanProfiler profiler;

	private final FrameClassifier classifier;

	private final NameAggregates aggregates;

	/**
	 * @param classifier tells the application's own frames from libraries', for colours
	 * and running spans' names
	 */
	public SpanProfileViews(SpanProfiler profiler, FrameClassifier classifier) {
		this(profiler, classifier, profiler.aggregates());
	}

	/**
	 * Over aggregates of their own, on a clock of their own: how a test makes a name
	 * expire between two reads.
	 */
	SpanProfileViews(SpanProfiler profiler, FrameClassifier classifier, NameAggregates aggregates) {
		this.profiler = profiler;
		this.classifier = classifier;
		this.aggregates = aggregates;
	}

	/** The engine's state and sample counts, as they are now. */
	public EngineJson engine() {
		return context().engine();
	}

	/** Recent and in-flight spans, newest first, except the request asking for them. */
	public SpanListView spans(SpanListQuery query) {
		ViewContext context = context();
		// The request asking is itself a running span until it ends (and is then dropped
		// as an actuator request).
		String asking = askingRequest();
		List<SpanRecord> spans = this.profiler.store()
			.recent((record) -> query.matches(record, context.now()) && !record.localRoot().spanId().equals(asking),
					query.limit());
		return new SpanListView(context, spans, query.name());
	}

	/**
	 * The flame graph of one span or, for a trace id, of all local spans of that trace
	 * merged (each local root a child of the root). Without root-span-only attribution a
	 * span's graph includes its local descendants; with it, a child span is served its
	 * local root's graph, which holds its samples.
	 * @throws ViewException (not found) when no such span or trace is stored
	 */
	public ProfileView profile(ProfileQuery query) {
		return profile(query, null);
	}

	/**
	 * As {@link #profile(ProfileQuery)}, the graph holding only what happened in
	 * {@code stretch} of the span's life when it is not {@code null}.
	 * @throws ViewException (bad request) for a stretch of a trace, or one that holds
	 * none of the span's time
	 */
	public ProfileView profile(ProfileQuery query, Stretch stretch) {
		ViewContext context = context();
		if (query.trace()) {
			if (stretch != null) {
				throw ViewException.badRequest("from and to select a stretch of one span's timeline; a trace has none: "
						+ "open one of its spans");
			}
			ProfileSubject subject = traceSubject(context, query);
			return new ProfileView(context, subject, subject.kind() != query.kind(), null, null);
		}
		SpanRecord requested = this.profiler.store().find(query.id());
		if (requested == null && this.profiler.startup() != null) {
			// A cold first request after the start, kept apart from the store.
			requested = this.profiler.startup().firstRequests().find(query.id());
		}
		if (requested == null) {
			throw ViewException.notFound("No span " + query.id() + " is stored: it was not sampled by the tracer, "
					+ "was evicted, or ran before profiling started");
		}
		SpanRecord profiled = context.rootSpanOnly() ? requested.localRoot() : requested;
		Stretch.Range range = (stretch != null)
				? stretch.resolve(profiled.startEpochNanos(), profiled.durationNanos(context.now())) : null;
		ProfileSubject subject = spanSubject(context, query, requested, profiled, range);
		return new ProfileView(context, subject, subject.kind() != query.kind(), range, this.aggregates);
	}

	private ProfileSubject spanSubject(ViewContext context, ProfileQuery query, SpanRecord requested,
			SpanRecord profiled, Stretch.Range range) {
		SampleKind kind = query.kind();
		if (!query.kindGiven() && context.sampledKinds().contains(SampleKind.WAIT)
				&& ((range != null) ? context.mostlyWaiting(profiled, range) : context.mostlyWaiting(profiled))) {
			// A request that mostly waited is explained by its waits; its few CPU samples
			// would not say why it was slow.
			kind = SampleKind.WAIT;
		}
		StackTree samples = (range != null) ? context.samplesOf(profiled, kind, range)
				: context.samplesOf(profiled, kind);
		return new ProfileSubject(requested, requested.traceId(),
				List.of(new ProfileSubject.Part(profiled, context.displayName(profiled, samples), samples)), kind);
	}

	private ProfileSubject traceSubject(ViewContext context, ProfileQuery query) {
		List<ProfileSubject.Part> parts = new ArrayList<>();
		for (SpanRecord record : this.profiler.store().trace(query.id())) {
			// Local roots' samples (with their descendants' when attribution is per span)
			// cover the whole trace here.
			if (record.isLocalRoot()) {
				StackTree samples = context.samplesOf(record, query.kind());
				parts.add(new ProfileSubject.Part(record, context.displayName(record, samples), samples));
			}
		}
		if (parts.isEmpty()) {
			throw ViewException.notFound("No span of trace " + query.id() + " is stored: it was not sampled by the "
					+ "tracer, did not pass through this process, was evicted, or ran before profiling started");
		}
		return new ProfileSubject(null, query.id(), parts, query.kind());
	}

	/**
	 * The span-name aggregates as the query form of {@code /names} asks for them: the
	 * list of names without a {@code name}, else that name's view ({@link #name}).
	 * @throws ViewException (not found) for a name with no span in the window
	 */
	public View names(NamesQuery query) {
		return (query.name() != null) ? name(query) : nameList(query.window());
	}

	/**
	 * Every span name that ended in the last {@code window}, busiest first, with its
	 * latency and samples.
	 */
	public NameListView nameList(Duration window) {
		ViewContext context = context();
		NameAggregates aggregates = this.aggregates;
		List<NameSummary> summaries = aggregates.summaries(window);
		Map<String, long[]> p99s = new HashMap<>();
		for (NameSummary summary : summaries) {
			p99s.put(summary.name(), aggregates.p99PerBucket(summary.name(), window));
		}
		return new NameListView(context, window, summaries, aggregates.settings(),
				nameWaits(context, aggregates, summaries, window), context.sampledKinds().contains(SampleKind.WAIT),
				p99s);
	}

	/**
	 * One span name's view: its merged profile (of a selection of its requests, when the
	 * query selects), its slow requests against its typical ones, the selection against
	 * the rest, or the stored spans behind one of its frames.
	 * @throws ViewException (not found) for a name with no span in the window
	 */
	public View name(NamesQuery query) {
		if (query.name() == null) {
			throw ViewException.badRequest("A span name is needed: /names/{name} or /names?name=");
		}
		ViewContext context = context();
		NameAggregates aggregates = this.aggregates;
		if (query.frame() != null) {
			List<String> path = List.of(query.frame().split(";", -1));
			return new FrameSpansView(context, query.name(), path,
					FrameSpans.top(this.profiler.store(), query.name(), query.kind(), path, 20), query.window(),
					query.kind());
		}
		if (!aggregates.selectsAnyBucket(query.window(), query.selection())) {
			throw ViewException.badRequest("from and to select no minute of the last "
					+ NameViews.describe(query.window()) + ": pick a stretch within the window");
		}
		// One lookup only: a name can leave the window (a sweep) between two.
		if (query.compare()) {
			ProfileDiff diff = query.rest()
					? aggregates.comparisons()
						.selectionAgainstRest(query.name(), query.window(), query.kind(), query.selection())
					: aggregates.comparisons()
						.slowAgainstTypical(query.name(), query.window(), query.kind(), query.minNanos());
			if (diff == null) {
				throw noSuchName(query);
			}
			return new NameDiffView(context, diff, query.window(), query.kind(), null,
					query.rest() ? NameViews.selectionQuery(query) : null,
					sidesOf(context, aggregates, query, SampleKind.WAIT),
					sidesOf(context, aggregates, query, SampleKind.CPU));
		}
		NameProfile profile = aggregates.profile(query.name(), query.window(), query.kind(), query.selection());
		if (profile == null) {
			throw noSuchName(query);
		}
		return new NameProfileView(context, profile, query.window(), query.kind(), query.selects());
	}

	/**
	 * The same comparison's sides in samples of {@code kind}, for the sentence that names
	 * callers and where CPU went; {@code null} where {@code kind} is not sampled or is
	 * the query's own.
	 */
	private static ProfileDiff sidesOf(ViewContext context, NameAggregates aggregates, NamesQuery query,
			SampleKind kind) {
		if (kind == query.kind() || !context.sampledKinds().contains(kind)) {
			return null;
		}
		return query.rest()
				? aggregates.comparisons().selectionAgainstRest(query.name(), query.window(), kind, query.selection())
				: aggregates.comparisons().slowAgainstTypical(query.name(), query.window(), kind, query.minNanos());
	}

	private static ViewException noSuchName(NamesQuery query) {
		return ViewException.notFound(
				"No span named '" + Echo.of(query.name()) + "' ended in the last " + NameViews.describe(query.window())
						+ " (names are exact and case-sensitive; see " + "/actuator/spanprofile/names for the list)");
	}

	/**
	 * How much each name waited, on what and for a core, from the breakdown sums its
	 * cells hold.
	 */
	private static Map<String, NameWaits> nameWaits(ViewContext context, NameAggregates aggregates,
			List<NameSummary> summaries, Duration window) {
		Map<String, NameWaits> waits = new HashMap<>();
		for (NameSummary summary : summaries) {
			waits.put(summary.name(), NameWaits.of(aggregates.breakdown(summary.name(), window), context.sampledKinds(),
					context.intervalNanos()));
		}
		return waits;
	}

	/**
	 * One span's request against the typical requests of its name over the last
	 * {@code window}.
	 * @throws ViewException (not found) when the span is not stored or its name has no
	 * aggregate
	 */
	public NameDiffView compareWithTypical(ProfileQuery query, Duration window) {
		if (query.trace()) {
			throw ViewException.badRequest("compare=typical takes a span id, not a trace id");
		}
		ViewContext context = context();
		SpanRecord span = this.profiler.store().find(query.id());
		if (span == null) {
			throw ViewException.notFound("No span " + query.id() + " is stored: it was not sampled by the tracer, "
					+ "was evicted, or ran before profiling started");
		}
		ProfileDiff diff = this.aggregates.comparisons().requestAgainstTypical(span, window, query.kind());
		if (diff == null) {
			throw ViewException.notFound("The name of span " + query.id() + " ('" + Echo.of(span.localRoot().name())
					+ "') has no aggregate in the last " + NameViews.describe(window));
		}
		return new NameDiffView(context, diff, window, query.kind(), span.localRoot(), null);
	}

	/** The local root span id of the request being served, or "" when there is none. */
	private String askingRequest() {
		SpanRecord current = this.profiler.store().find(Span.current().getSpanContext().getSpanId());
		return (current != null) ? current.localRoot().spanId() : "";
	}

	/**
	 * The application's start ({@code path} empty), its timeline ({@code timeline}), the
	 * first requests after it ({@code first-requests}), or one step's flame graph (its
	 * id), with samples of {@code event}'s kind.
	 * @throws ViewException (not found) when the start was not recorded (turned off, or
	 * the engine was made after it), or for an unknown step
	 */
	public View startup(String path, String event) {
		StartupRecording recording = this.profiler.startup();
		if (recording == null) {
			throw ViewException.notFound("The start was not recorded: startup profiling is off "
					+ "(spanprofile.startup.enabled=false), or the profiler did not start with the application");
		}
		SampleKind kind = ProfileQuery.sampleKind(event, this.profiler.settings().sampler());
		ViewContext context = context();
		recording.keepSlowestGraphs(this.profiler.completeUpToEpochNanos());
		if (path == null || path.isEmpty()) {
			return new StartupView(context, recording, false, kind, this.aggregates);
		}
		if (path.equals("timeline")) {
			return new StartupView(context, recording, true, kind, this.aggregates);
		}
		if (path.equals("first-requests")) {
			return new FirstRequestsView(context, recording, this.aggregates);
		}
		StartupStep step = path.matches("[0-9]{1,9}") ? recording.find(Integer.parseInt(path)) : null;
		if (step == null) {
			throw ViewException.notFound("No startup step " + Echo.of(path) + ": /startup lists the steps, "
					+ "/startup/timeline all of them");
		}
		return new StartupStepView(context, recording, step, kind);
	}

	/**
	 * Every view reads the store brought up to date: a request that ended a moment ago
	 * shows its whole profile, not what the last periodic collection had joined.
	 */
	private ViewContext context() {
		this.profiler.collectUnlessFresh();
		return new ViewContext(this.profiler, this.classifier);
	}

}
