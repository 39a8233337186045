package dev.spanprofile.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.view.Echo;
import dev.spanprofile.view.NamePageRedirect;
import dev.spanprofile.view.NameProfileView;
import dev.spanprofile.view.NamesQuery;
import dev.spanprofile.view.ListFormat;
import dev.spanprofile.view.ProfileFormat;
import dev.spanprofile.view.ProfileQuery;
import dev.spanprofile.view.SpanListQuery;
import dev.spanprofile.view.SpanListView;
import dev.spanprofile.view.SpanProfileViews;
import dev.spanprofile.view.SamplingChange;
import dev.spanprofile.view.Stretch;
import dev.spanprofile.view.View;
import dev.spanprofile.view.ViewException;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.lang.Nullable;

/**
 * {@code /actuator/spanprofile}: the recent and running spans, and the flame graph of any
 * one of them or of a whole trace, as JSON, collapsed stacks, an interactive HTML page or
 * pprof. What is shown is decided by the {@link SpanProfileViews view layer}; this class
 * binds parameters, negotiates the format and maps a {@link ViewException} to a 400 or
 * 404 with a message.
 * <p>
 * Query parameters are taken as strings so that bad input gets a message that says what
 * is wrong instead of a generic error; the flame graphs' ten as one
 * {@link ProfileParameters}, which {@link ProfileParametersBinder} binds. A
 * {@code format} parameter overrides the {@code Accept} header, for links and curl.
 * <p>
 * Optional parameters carry Spring's own {@code @Nullable}: Boot 3.5 recognises only that
 * annotation (Boot 4 any annotation named {@code Nullable}), and one endpoint class
 * serves both lines.
 */
@SuppressWarnings("deprecation")
@WebEndpoint(id = "spanprofile")
public class SpanProfileEndpoint {

	/**
	 * The value of the first selector that lists the span names, and whose path continues
	 * with a name.
	 */
	private static final String NAMES = "names";

	/**
	 * The application's start: {@code /startup}, {@code /startup/timeline},
	 * {@code /startup/{step}}.
	 */
	private static final String STARTUP = "startup";

	/** The endpoint's id, {@code /actuator/spanprofile}. */
	static final EndpointId ID = EndpointId.of("spanprofile");

	private final SpanProfiler profiler;

	private final SpanProfileViews views;

	private final ProfileAwait await;

	/** The captures of on-demand profiling; {@code null} when it is off. */
	private final Supplier<CaptureControl> captures;

	public SpanProfileEndpoint(SpanProfiler profiler) {
		this(profiler, List.of());
	}

	public SpanProfileEndpoint(SpanProfiler profiler, List<String> applicationPackages) {
		this(profiler, applicationPackages, () -> null);
	}

	/**
	 * @param applicationPackages the application's own packages, whose frames the pages
	 * colour as application code
	 * @param captures the captures of on-demand profiling, {@code null} while it is off
	 */
	public SpanProfileEndpoint(SpanProfiler profiler, List<String> applicationPackages,
			Supplier<CaptureControl> captures) {
		this.profiler = profiler;
		this.captures = captures;
		this.views = new SpanProfileViews(profiler, new FrameClassifier(applicationPackages));
		this.await = new ProfileAwait(profiler);
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
		try {
			ListFormat chosen = ListFormat.resolve(format, accepted.format());
			SpanListView view = this.views.spans(SpanListQuery.parse(limit, name, minDurationMillis));
			CaptureControl control = this.captures.get();
			if (control != null) {
				view = view.withCaptures(control.active());
			}
			Object body = (chosen == ListFormat.HTML) ? view.html() : view.json();
			return new WebEndpointResponse<>(body, 200, SpanListFormat.of(chosen).getProducedMimeType());
		}
		catch (ViewException ex) {
			return error(ex);
		}
	}

	/**
	 * The flame graph of one span or, for a 32-hex trace id, of all local spans of that
	 * trace merged. JSON tree by default, collapsed stacks for
	 * {@code Accept: text/plain}, an interactive page for {@code text/html}, pprof for
	 * {@code application/octet-stream}; {@code format} overrides the header. With
	 * {@code compare=typical}, the span's request against the typical requests of its
	 * name.
	 * <p>
	 * {@code /names} is the list of span names with their latency. An actuator path has
	 * selectors only, no fixed segments, so the list is the one value of {@code id} that
	 * is not a span or trace; one name's views have a route of their own
	 * ({@link #spanName}). The list's query form, {@code /names?name=}, serves a name's
	 * views as well: the pages link to it, and so do addresses already shared.
	 * <p>
	 * With {@code await=5s}, a span's graph is served once the span has ended and its
	 * profile is complete, or after that long ({@link ProfileAwait}).
	 * @param id a span id (16 hexadecimal characters), trace id (32), or {@code names}
	 * @param accepted the format the {@code Accept} header asks for
	 * @param query the query parameters ({@link ProfileParameters})
	 * @param await the {@code await} query parameter
	 */
	@ReadOperation(producesFrom = FlameGraphFormat.class)
	public WebEndpointResponse<Object> flameGraph(@Selector String id, FlameGraphFormat accepted,
			ProfileParameters query, AwaitParameter await) {
		try {
			ProfileFormat chosen = ProfileFormat.resolve(query.format(), accepted.format());
			if (id.equals(STARTUP)) {
				return respond(this.views.startup("", query.event()), chosen);
			}
			Duration wait = await.duration();
			if (wait != null && !id.equals(NAMES)) {
				this.await.awaitComplete(id, wait);
			}
			if (id.equals(NAMES)) {
				View names = this.views.names(namesQuery(query, query.name()));
				CaptureControl control = this.captures.get();
				if (names instanceof NameProfileView name && control != null) {
					names = name.withCaptures(control.active());
				}
				return respond(names, chosen);
			}
			ProfileQuery profile = ProfileQuery.parse(id, query.event(), this.profiler.settings().sampler());
			if (query.compare() != null && !query.compare().isBlank()) {
				NamesQuery comparison = namesQuery(new ProfileParameters(null, query.event(), null, query.window(),
						null, null, query.compare(), null, null, null), "-");
				return respond(this.views.compareWithTypical(profile, comparison.window()), chosen);
			}
			return respond(this.views.profile(profile, Stretch.parse(query.from(), query.to())), chosen);
		}
		catch (ViewException ex) {
			return error(ex);
		}
	}

	/**
	 * {@code /names/{name}}: one span name's requests merged into one flame graph, of a
	 * selection of them (a rectangle of the name's latency heatmap), its slow requests
	 * against its typical ones, the selection against the rest, or the stored requests
	 * with the most samples in one frame. The name is the rest of the path, slashes
	 * included ({@code /names/GET%20/owners/%7Bid%7D}); a name the path cannot carry
	 * (empty segments, a {@code ;}) is asked for with {@code /names?name=}, which serves
	 * the same views. A browser asking for the page is moved on to that form, whose links
	 * are relative to the endpoint.
	 * @param id {@code names}
	 * @param spanName the exact span name, one segment per part between slashes
	 * @param accepted the format the {@code Accept} header asks for
	 * @param query the query parameters ({@link ProfileParameters}; {@code name} is the
	 * path's)
	 */
	@ReadOperation(producesFrom = FlameGraphFormat.class)
	public WebEndpointResponse<Object> spanName(@Selector String id,
			@Selector(match = Selector.Match.ALL_REMAINING) String[] spanName, FlameGraphFormat accepted,
			ProfileParameters query) {
		try {
			if (id.equals(STARTUP)) {
				return respond(this.views.startup(String.join("/", spanName), query.event()),
						ProfileFormat.resolve(query.format(), accepted.format()));
			}
			if (!id.equals(NAMES)) {
				throw ViewException.notFound("No such address: below /spanprofile/" + Echo.of(id) + " there is "
						+ "nothing; /spanprofile/names/{name} serves a span name's views");
			}
			ProfileFormat chosen = ProfileFormat.resolve(query.format(), accepted.format());
			String joined = String.join("/", spanName);
			NamesQuery names = namesQuery(query, joined);
			if (joined.isEmpty()) {
				throw ViewException.badRequest("A span name is needed after /names/");
			}
			if (chosen == ProfileFormat.HTML) {
				return new WebEndpointResponse<>(NamePageRedirect.html(names, spanName.length), 200,
						FlameGraphFormat.HTML.getProducedMimeType());
			}
			return respond(this.views.name(names), chosen);
		}
		catch (ViewException ex) {
			return error(ex);
		}
	}

	/** A name's query: {@code query}'s parameters, for the span name {@code name}. */
	private NamesQuery namesQuery(ProfileParameters query, String name) {
		return NamesQuery.parse(query.window(), name, query.minDurationMillis(), query.maxDurationMillis(),
				query.compare(), query.frame(), query.from(), query.to(), query.event(),
				this.profiler.settings().sampler(), this.profiler.settings().aggregate().window());
	}

	private static WebEndpointResponse<Object> respond(View view, ProfileFormat format) {
		return new WebEndpointResponse<>(view.render(format), 200, FlameGraphFormat.of(format).getProducedMimeType());
	}

	/**
	 * Change what is sampled, or stop and resume profiling, without restarting the
	 * application: {@code POST {"event": "cpu,wall,alloc,lock", "interval": "20ms"}},
	 * {@code POST {"enabled": false}}. Every value is checked before anything changes: a
	 * bad one is a 400 that names what is allowed, and sampling stays as it was. Stored
	 * profiles stay readable while stopped; spans that start meanwhile are not stored.
	 * Like every write operation it is unavailable with
	 * {@code management.endpoint.spanprofile.access=read-only}.
	 * @param enabled {@code true} or {@code false}; taken as a string so that anything
	 * else gets a 400 that says why
	 * @param event the events to sample from now on, as {@code spanprofile.event} takes
	 * them
	 * @param interval the sampling interval, e.g. {@code 20ms}
	 * @param allocInterval bytes between allocation samples, e.g. {@code 512KB}
	 * @param lockThreshold the lock event's threshold, e.g. {@code 10ms}
	 * @param capture a capture of a name's next requests ({@code capture}, {@code count},
	 * {@code within}), alone in its body ({@link #capture})
	 * @return the engine status after the change: what is sampled now; {@code running} is
	 * false with a {@code problem} when the profiler could not start
	 */
	@WriteOperation
	public WebEndpointResponse<Object> configure(@Nullable String enabled, @Nullable String event,
			@Nullable String interval, @Nullable String allocInterval, @Nullable String lockThreshold,
			CaptureParameters capture) {
		if (!capture.isEmpty()) {
			if (!capture.unknownKeys().isEmpty()) {
				return error(ViewException.badRequest("A capture takes capture, count and within only; unknown: "
						+ Echo.of(String.join(", ", capture.unknownKeys())) + ". Nothing was changed"));
			}
			if (enabled != null || event != null || interval != null || allocInterval != null
					|| lockThreshold != null) {
				return error(ViewException.badRequest("capture, count and within come alone in their body: "
						+ "{\"capture\": \"http get /owners/{ownerId}\", \"count\": 20, \"within\": \"10m\"}"));
			}
			return capture(capture);
		}
		String switchTo = (enabled != null) ? enabled.trim() : null;
		SamplingChange change = new SamplingChange(event, interval, allocInterval, lockThreshold);
		if (switchTo == null && change.isEmpty()) {
			return error(ViewException.badRequest("Expected a JSON body {\"enabled\": true}, {\"enabled\": false} or "
					+ "what to sample, e.g. {\"event\": \"cpu,wall\", \"interval\": \"20ms\"}"));
		}
		if (switchTo != null && !switchTo.equalsIgnoreCase("true") && !switchTo.equalsIgnoreCase("false")) {
			return error(ViewException.badRequest("enabled must be true or false, was '" + Echo.of(switchTo) + "'"));
		}
		if (!change.isEmpty()) {
			try {
				String refused = this.profiler.resample(change.applyTo(this.profiler.settings().sampler()));
				if (refused != null) {
					return error(ViewException
						.badRequest("The profiler cannot sample that here, sampling is " + "unchanged: " + refused));
				}
			}
			catch (ViewException ex) {
				return error(ex);
			}
			catch (IllegalStateException ex) {
				return error(ViewException.badRequest(ex.getMessage()));
			}
		}
		if ("true".equalsIgnoreCase(switchTo)) {
			this.profiler.start();
		}
		else if ("false".equalsIgnoreCase(switchTo)) {
			this.profiler.stop();
		}
		return new WebEndpointResponse<>(this.views.engine(), 200);
	}

	/**
	 * {@code POST {"capture": "http get /owners/{ownerId}", "count": 20, "within":
	 * "10m"}}: force the next {@code count} requests of a span name (or of a URL path
	 * pattern such as {@code /owners/**}) to be traced, profiled and kept, for at most
	 * {@code within}; {@code count: 0} cancels. Flat keys: an actuator operation's body
	 * is one level of strings. Every field is checked before anything changes: a bad one
	 * is a 400 that names it. Needs on-demand profiling on.
	 */
	private WebEndpointResponse<Object> capture(CaptureParameters capture) {
		try {
			CaptureControl control = captureControl();
			CaptureRequest request = CaptureRequest.parse(capture);
			Map<String, Object> started;
			try {
				started = control.start(request.name(), request.count(), request.within());
			}
			catch (IllegalArgumentException ex) {
				throw ViewException.badRequest(ex.getMessage());
			}
			Map<String, Object> body = new LinkedHashMap<>();
			body.put((request.count() > 0) ? "capture" : "cancelled", started);
			body.put("captures", control.active());
			return new WebEndpointResponse<>(body, 200);
		}
		catch (ViewException ex) {
			return error(ex);
		}
	}

	/**
	 * {@code DELETE /actuator/spanprofile?name=…}: cancel the capture of that name, or
	 * every capture without one.
	 * @param name the capture's name as it was started
	 * @return how many were cancelled, and the captures left
	 */
	@DeleteOperation
	public WebEndpointResponse<Object> cancelCaptures(@Nullable String name) {
		try {
			CaptureControl control = captureControl();
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("cancelled", control.cancel(name));
			body.put("captures", control.active());
			return new WebEndpointResponse<>(body, 200);
		}
		catch (ViewException ex) {
			return error(ex);
		}
	}

	private CaptureControl captureControl() {
		CaptureControl control = this.captures.get();
		if (control == null) {
			throw ViewException.badRequest("Captures need on-demand profiling: set spanprofile.on-demand.enabled=true "
					+ "(with spanprofile.on-demand.token or spanprofile.on-demand.allow-loopback)");
		}
		return control;
	}

	private static WebEndpointResponse<Object> error(ViewException ex) {
		boolean notFound = ex.problem() == ViewException.Problem.NOT_FOUND;
		int status = notFound ? 404 : 400;
		ErrorJson body = new ErrorJson(status, notFound ? "Not Found" : "Bad Request", ex.getMessage());
		// Errors are JSON whatever was asked for: a plain-text client still gets a
		// readable message.
		return new WebEndpointResponse<>(body, status, FlameGraphFormat.JSON.getProducedMimeType());
	}

	/**
	 * A 400 or 404: the keys of Spring Boot's own error body that a client reads, with
	 * the view's message.
	 *
	 * @param status the HTTP status
	 * @param error its reason phrase
	 * @param message what was wrong, and what is allowed
	 */
	public record ErrorJson(int status, String error, String message) {
	}

}
