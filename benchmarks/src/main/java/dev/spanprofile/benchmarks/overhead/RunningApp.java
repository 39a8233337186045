package dev.spanprofile.benchmarks.overhead;

/**
 * An application process with the load driven at it; closing stops the load first, then
 * the application.
 */
record RunningApp(AppProcess app, LoadDriver load) implements AutoCloseable {

	@Override
	public void close() throws InterruptedException {
		try {
			this.load.close();
		}
		finally {
			this.app.close();
		}
	}

}
