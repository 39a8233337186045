package dev.spanprofile.actuate.health;

import dev.spanprofile.SpanProfiler;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code spanprofile} health contributor on Spring Boot 4: always up, with the
 * engine, event, state and any problem in its details.
 */
public class SpanProfileHealthIndicator implements HealthIndicator {

	private final ProfilerHealthDetails details;

	public SpanProfileHealthIndicator(SpanProfiler profiler) {
		this.details = new ProfilerHealthDetails(profiler);
	}

	@Override
	public Health health() {
		return Health.up().withDetails(this.details.get()).build();
	}

}
