package dev.spanprofile.actuate.health;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.spanprofile.EngineStatus;
import dev.spanprofile.ProfilerState;
import dev.spanprofile.SpanProfiler;

/**
 * The health details of the profiler, the same on every Spring Boot line. The status they
 * go with is always up: a profiler that cannot sample costs the application nothing but
 * its profiles, and must never take an instance out of a load balancer's rotation. What
 * went wrong is in {@code problem}.
 */
public final class ProfilerHealthDetails {

	private final SpanProfiler profiler;

	public ProfilerHealthDetails(SpanProfiler profiler) {
		this.profiler = profiler;
	}

	public Map<String, Object> get() {
		EngineStatus status = this.profiler.status();
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("engine", status.engine());
		details.put("event", status.event());
		details.put("state", state(this.profiler.state()));
		if (status.problem() != null && !status.running()) {
			details.put("problem", status.problem());
		}
		if (status.note() != null) {
			details.put("note", status.note());
		}
		return details;
	}

	private static String state(ProfilerState state) {
		return switch (state.phase()) {
			case NEW -> "not started";
			default -> state.phase().name().toLowerCase(Locale.ROOT);
		};
	}

}
