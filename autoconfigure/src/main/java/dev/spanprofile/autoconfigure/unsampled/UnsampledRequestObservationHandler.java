package dev.spanprofile.autoconfigure.unsampled;

import java.util.function.Predicate;

import dev.spanprofile.lifecycle.UnsampledProfilingRate;
import dev.spanprofile.lifecycle.UnsampledRequests;
import dev.spanprofile.tracking.UnsampledRequest;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationView;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.TracingObservationHandler;

/**
 * Reports the requests that tracing did not sample to the profiler. Spring starts an
 * observation for every request whether or not its span is sampled, and the observation
 * knows what the span would have been called (its route, e.g. {@code http get
 * /owners/{ownerId}}, set as it stops): so this handler can count a request under that
 * name, and mark the threads working for it, without a span to store.
 * <p>
 * Only observations with no parent (local roots) whose tracing handler made a span the
 * sampler dropped: it reads that span in {@link #onStart}, so it must come after the
 * tracing handlers, as Spring Boot registers handlers of no group of its own (it
 * registers the tracing handlers' group first). Per root observation that is one map
 * lookup on start and on stop (nested observations cost a field read each); per scope of
 * any observation one lookup in its root's context, so that a thread handed a task under
 * a child observation works for the request too. An unsampled request adds one small
 * object kept in the observation's context.
 */
public final class UnsampledRequestObservationHandler implements ObservationHandler<Observation.Context> {

	private final UnsampledRequests requests;

	private final UnsampledProfilingRate rate;

	private final Predicate<Observation.Context> excluded;

	/**
	 * @param rate how many of them are profiled; the others count in their name's latency
	 * only
	 * @param excluded requests not to count (calls to the actuator), asked as they end
	 */
	public UnsampledRequestObservationHandler(UnsampledRequests requests, UnsampledProfilingRate rate,
			Predicate<Observation.Context> excluded) {
		this.requests = requests;
		this.rate = rate;
		this.excluded = excluded;
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return true;
	}

	@Override
	public void onStart(Observation.Context context) {
		if (context.getParentObservation() != null) {
			return;
		}
		TracingObservationHandler.TracingContext tracing = context.get(TracingObservationHandler.TracingContext.class);
		Span span = (tracing != null) ? tracing.getSpan() : null;
		if (span != null && !Boolean.TRUE.equals(span.context().sampled())) {
			context.put(UnsampledRequest.class, this.requests.started(this.rate));
		}
	}

	@Override
	public void onScopeOpened(Observation.Context context) {
		UnsampledRequest request = requestAbove(context);
		if (request != null) {
			this.requests.entered(request);
		}
	}

	@Override
	public void onScopeClosed(Observation.Context context) {
		UnsampledRequest request = requestAbove(context);
		if (request != null) {
			this.requests.left(request);
		}
	}

	@Override
	public void onScopeReset(Observation.Context context) {
		// A pool thread handed back: it works for no request any more.
		this.requests.left(null);
	}

	@Override
	public void onStop(Observation.Context context) {
		UnsampledRequest request = requestOf(context);
		if (request != null) {
			String name = this.excluded.test(context) ? null : spanName(context);
			this.requests.ended(request, name, context.getError() != null);
		}
	}

	/**
	 * The unsampled request an observation stands for, if any: only roots are looked up
	 * (a field read for others).
	 */
	private static UnsampledRequest requestOf(Observation.Context context) {
		return (context.getParentObservation() == null) ? context.get(UnsampledRequest.class) : null;
	}

	/**
	 * The unsampled request an observation works for: its root's. A scope of a child
	 * observation (an {@code @Observed} method, a repository call) is the one a task
	 * handed to a pool from inside it carries, so its thread works for the request too. A
	 * field read per level, one lookup at the root.
	 */
	private static UnsampledRequest requestAbove(Observation.Context context) {
		Observation.ContextView root = context;
		ObservationView parent = context.getParentObservation();
		while (parent != null) {
			root = parent.getContextView();
			parent = root.getParentObservation();
		}
		return root.get(UnsampledRequest.class);
	}

	/**
	 * The name Micrometer's tracing handler gives the span: the contextual name, else the
	 * observation's.
	 */
	private static String spanName(Observation.Context context) {
		String contextual = context.getContextualName();
		return (contextual != null && !contextual.isBlank()) ? contextual : context.getName();
	}

	/**
	 * A key's value among the observation's tags, low cardinality first; {@code null}
	 * when it has none.
	 */
	static String tag(Observation.Context context, String key) {
		KeyValue value = context.getLowCardinalityKeyValue(key);
		if (value == null) {
			value = context.getHighCardinalityKeyValue(key);
		}
		return (value != null) ? value.getValue() : null;
	}

}
