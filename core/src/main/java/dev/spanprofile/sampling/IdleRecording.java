package dev.spanprofile.sampling;

import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * A Flight Recorder recording with no events, running beside spanprofile's own on JDK 17
 * to 20 so that it is never the last one to stop. There, once the last recording stops,
 * the JVM's "JFR Periodic Tasks" thread wakes every 10 ms for good (JDK-8302821, fixed in
 * JDK 21): about 100 wake-ups and 5–7 ms of CPU a second, measured on JDK 17.0.15, in an
 * application that switched profiling off to pay nothing. While any recording runs, that
 * thread sleeps a second at a time. One with no events enabled records nothing and holds
 * only the buffers Flight Recorder has anyway. It must go to disk: an in-memory one left
 * the thread waking 80–90 times a second. On disk it shares every chunk written while it
 * runs, those of spanprofile's streams too, so it keeps none but the one being written
 * (about 120 kB in {@code JfrEventStreamTest}; without a limit, every chunk the streams
 * consumed stayed in the repository).
 * <p>
 * Started with the first of spanprofile's recordings, not when the last one stops:
 * stopping runs at shutdown too, and a recording started while the JVM shuts down blocks
 * its exit. One per JVM, left running: Flight Recorder discards it at exit. Its name says
 * why it is there, for whoever lists the recordings ({@code jcmd <pid> JFR.check}).
 */
final class IdleRecording {

	static final String NAME = "spanprofile: no events, keeps JFR's periodic thread asleep (JDK-8302821)";

	private static final System.Logger logger = System.getLogger(IdleRecording.class.getName());

	private static final Object lock = new Object();

	/** Guarded by {@link #lock}. */
	private static Recording recording;

	private IdleRecording() {
	}

	/**
	 * Before one of spanprofile's recordings starts: start the idle one if this JDK needs
	 * it.
	 */
	static void keepRunning() {
		if (Runtime.version().feature() >= 21) {
			return;
		}
		synchronized (lock) {
			if (recording != null && recording.getState() == RecordingState.RUNNING) {
				return;
			}
			try {
				Recording idle = new Recording();
				idle.setName(NAME);
				idle.setToDisk(true);
				// Every chunk written while it runs is also its own: without a limit it
				// would keep all that spanprofile's streams consumed, on disk, for good.
				idle.setMaxSize(1);
				idle.start();
				recording = idle;
			}
			catch (RuntimeException ex) {
				// Stopped with jcmd, or refused: spanprofile's own recording will tell.
				logger.log(System.Logger.Level.DEBUG, "No idle Flight Recorder recording: " + ex);
			}
		}
	}

	/** Whether the idle recording runs now (for tests). */
	static boolean isRunning() {
		synchronized (lock) {
			return recording != null && recording.getState() == RecordingState.RUNNING;
		}
	}

	/** Bytes of the repository's chunks the idle recording holds (for tests). */
	static long bytesHeld() {
		synchronized (lock) {
			return (recording != null) ? recording.getSize() : 0;
		}
	}

}
