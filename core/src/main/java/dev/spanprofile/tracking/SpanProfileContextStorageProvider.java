package dev.spanprofile.tracking;

import io.opentelemetry.context.ContextStorage;
import io.opentelemetry.context.ContextStorageProvider;

/**
 * A way in that cannot come too late: selected with the system property
 * {@code io.opentelemetry.context.contextStorageProvider}, OpenTelemetry builds its
 * storage through this provider, so the activation hook is in place whatever touched the
 * context first.
 */
public final class SpanProfileContextStorageProvider implements ContextStorageProvider {

	@Override
	public ContextStorage get() {
		return ActivationTracking.wrap(ContextStorage.defaultStorage());
	}

}
