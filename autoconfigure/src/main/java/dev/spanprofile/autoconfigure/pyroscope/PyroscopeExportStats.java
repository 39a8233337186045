package dev.spanprofile.autoconfigure.pyroscope;

import java.util.concurrent.atomic.AtomicReference;

import dev.spanprofile.pyroscope.PyroscopeEngine;
import dev.spanprofile.pyroscope.PyroscopeEngine.UploadStats;

/**
 * The upload statistics of the Pyroscope engine the profiler was given, for the metrics:
 * the engine is made inside the profiler, so its factory reports it here.
 */
public final class PyroscopeExportStats {

	private static final UploadStats NONE = new UploadStats(0, 0, 0, 0, false, 0);

	private final AtomicReference<PyroscopeEngine> engine = new AtomicReference<>();

	PyroscopeEngine created(PyroscopeEngine engine) {
		this.engine.set(engine);
		return engine;
	}

	public UploadStats current() {
		PyroscopeEngine engine = this.engine.get();
		return (engine != null) ? engine.uploadStats() : NONE;
	}

}
