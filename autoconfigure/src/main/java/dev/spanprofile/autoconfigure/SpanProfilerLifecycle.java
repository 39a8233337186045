package dev.spanprofile.autoconfigure;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.tracking.ActivationTracking;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Starts sampling with the application context (before the web server takes requests) and
 * stops it last. Running means the profiler runs: after a failed start, or a stop through
 * the endpoint, it is not.
 */
public class SpanProfilerLifecycle implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(SpanProfilerLifecycle.class);

	private final SpanProfiler profiler;

	public SpanProfilerLifecycle(SpanProfiler profiler) {
		this.profiler = profiler;
	}

	@Override
	public void start() {
		if (!ActivationTracking.isActive()) {
			logger.warn(ActivationTracking.lateInstallAdvice());
		}
		this.profiler.start();
	}

	@Override
	public void stop() {
		this.profiler.stop();
	}

	@Override
	public boolean isRunning() {
		return this.profiler.state().isRunning();
	}

	@Override
	public int getPhase() {
		return Integer.MIN_VALUE + 1000;
	}

}
