package dev.spanprofile.tracking;

import java.util.concurrent.atomic.AtomicBoolean;

import io.opentelemetry.context.ContextStorage;

/**
 * Installs the span activation hook into OpenTelemetry's context storage.
 * <p>
 * OpenTelemetry applies storage wrappers once, when the storage is first used, and
 * silently ignores wrappers added later. {@link #install()} must therefore run before
 * anything touches {@code Context.current()}; {@link #isActive()} tells afterwards
 * whether it made it in time.
 */
public final class ActivationTracking {

	private static final AtomicBoolean installed = new AtomicBoolean();

	private static volatile boolean active;

	private ActivationTracking() {
	}

	/** Register the wrapper (once per JVM). Returns whether this call registered it. */
	public static boolean install() {
		if (!installed.compareAndSet(false, true)) {
			return false;
		}
		ContextStorage.addWrapper(ActivationTracking::wrap);
		return true;
	}

	/**
	 * Whether the wrapper is in the storage OpenTelemetry actually uses. Initialises the
	 * storage if nothing did yet, which applies a pending wrapper.
	 */
	public static boolean isActive() {
		ContextStorage.get();
		return active;
	}

	/**
	 * Used by {@link SpanProfileContextStorageProvider} when the storage is chosen by
	 * system property.
	 */
	static ContextStorage wrap(ContextStorage storage) {
		if (storage instanceof SpanActivationStorage || storage instanceof TrackingContextStorage) {
			return storage;
		}
		active = true;
		if (storage == ContextStorage.defaultStorage()) {
			return new TrackingContextStorage(ActivationRecorder.global());
		}
		return new SpanActivationStorage(storage, ActivationRecorder.global());
	}

	/** The one-line fix to print when the hook came too late. */
	public static String lateInstallAdvice() {
		return "OpenTelemetry's context storage was initialised before spanprofile could hook into it, so spans "
				+ "cannot be tracked. Make sure nothing uses io.opentelemetry.context.Context before "
				+ "SpringApplication.run, or start the JVM with -Dio.opentelemetry.context.contextStorageProvider="
				+ SpanProfileContextStorageProvider.class.getName();
	}

}
