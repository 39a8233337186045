package dev.spanprofile.autoconfigure;

import dev.spanprofile.tracking.ActivationTracking;

import org.springframework.boot.context.event.ApplicationStartingEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.GenericApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

/**
 * Hooks span activation tracking into OpenTelemetry's context storage at the earliest
 * moment Spring Boot offers, before any bean can touch the context (after that,
 * OpenTelemetry ignores new storage wrappers).
 */
public class ActivationTrackingApplicationListener implements GenericApplicationListener {

	private static final boolean CONTEXT_PRESENT = ClassUtils.isPresent("io.opentelemetry.context.ContextStorage",
			ActivationTrackingApplicationListener.class.getClassLoader());

	@Override
	public boolean supportsEventType(ResolvableType eventType) {
		return ApplicationStartingEvent.class.isAssignableFrom(eventType.toClass());
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (CONTEXT_PRESENT) {
			ActivationTracking.install();
		}
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
