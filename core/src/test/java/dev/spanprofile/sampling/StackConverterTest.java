package dev.spanprofile.sampling;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Every engine names, classifies and keys frames through this one converter. */
class StackConverterTest {

	@Test
	void aNameIsTwoFramesWhenItsKindsDiffer() {
		FrameTable frames = new FrameTable();
		StackConverter converter = new StackConverter(frames);
		int java = converter.frame("jdk.internal.misc.Unsafe.park", FrameKind.JAVA);
		int nativeFrame = converter.frame("jdk.internal.misc.Unsafe.park", FrameKind.NATIVE);
		assertThat(nativeFrame).isNotEqualTo(java);
		assertThat(frames.kind(nativeFrame)).isEqualTo(FrameKind.NATIVE);
		// A second converter (another engine) over the same table agrees on both.
		StackConverter other = new StackConverter(frames);
		assertThat(other.frame("jdk.internal.misc.Unsafe.park", FrameKind.JAVA)).isEqualTo(java);
		assertThat(other.frame("jdk.internal.misc.Unsafe.park", FrameKind.NATIVE)).isEqualTo(nativeFrame);
	}

	@Test
	void frameTypesOfTheJdkAndOfAsyncProfilerMapToOneSetOfKinds() {
		assertThat(StackConverter.kind("Interpreted")).isEqualTo(FrameKind.JAVA);
		assertThat(StackConverter.kind("JIT compiled")).isEqualTo(FrameKind.JAVA);
		assertThat(StackConverter.kind("Inlined")).isEqualTo(FrameKind.JAVA);
		assertThat(StackConverter.kind("Native")).isEqualTo(FrameKind.NATIVE);
		assertThat(StackConverter.kind("C++")).isEqualTo(FrameKind.NATIVE);
		assertThat(StackConverter.kind("Kernel")).isEqualTo(FrameKind.KERNEL);
		assertThat(StackConverter.kind((byte) 3)).isEqualTo(FrameKind.NATIVE);
		assertThat(StackConverter.kind((byte) 5)).isEqualTo(FrameKind.KERNEL);
		assertThat(StackConverter.name("com/acme/Shop", "buy")).isEqualTo("com.acme.Shop.buy");
		assertThat(StackConverter.name(null, "memcpy")).isEqualTo("memcpy");
	}

	@Test
	void aStackTheParserHandsOutAgainIsNotNamedAgain(@TempDir Path dir) throws Exception {
		List<RecordedEvent> parks = parksFrom(dir, 5, 5, 5, 5);
		FrameTable frames = new FrameTable();
		StackConverter converter = new StackConverter(frames);
		RecordedStackTrace trace = parks.get(0).getStackTrace();
		int[] first = converter.rootFirst(trace);
		assertThat(converter.rootFirst(trace)).isSameAs(first);
		assertThat(frames.name(first[first.length - 1])).isEqualTo("jdk.internal.misc.Unsafe.park");
		assertThat(path(frames, first)).isEqualTo(5);
		// Every park of the same place: the same frames, whether the parser shared the
		// object or not.
		for (RecordedEvent park : parks) {
			assertThat(converter.rootFirst(park.getStackTrace())).containsExactly(first);
		}
	}

	@Test
	void aMethodMetAgainInAnotherStackIsNotNamedAgain(@TempDir Path dir) throws Exception {
		// 300 distinct stacks, all through the same few methods.
		List<RecordedEvent> parks = parksFrom(dir, firstPaths(300));
		Set<String> methods = new HashSet<>();
		for (RecordedEvent park : parks) {
			for (RecordedFrame frame : park.getStackTrace().getFrames()) {
				methods.add(frame.getMethod().getType().getName() + "." + frame.getMethod().getName()
						+ frame.getMethod().getDescriptor() + " " + StackConverter.kind(frame.getType()));
			}
		}
		StackConverter converter = new StackConverter(new FrameTable());
		long frames = 0;
		for (RecordedEvent park : parks) {
			frames += converter.rootFirst(park.getStackTrace()).length;
		}
		System.out.printf("%d stacks of %d frames in all, %d distinct methods: %d named%n", parks.size(), frames,
				methods.size(), converter.methodsNamed());
		// Each distinct method (the test's own, JUnit's, the JDK's) named once in its
		// kind of frame, not each frame: once per parser object, so twice at most should
		// the recording span two chunks.
		assertThat(converter.methodsNamed()).isBetween((long) methods.size(), 2L * methods.size());
	}

	@Test
	void stacksBeyondTheBoundAreStillConvertedRight(@TempDir Path dir) throws Exception {
		// More distinct stacks than the converter remembers, twice over.
		List<RecordedEvent> parks = parksFrom(dir, firstPaths(1500));
		FrameTable frames = new FrameTable();
		StackConverter converter = new StackConverter(frames);
		for (int round = 0; round < 2; round++) {
			for (RecordedEvent park : parks) {
				int[] stack = converter.rootFirst(park.getStackTrace());
				assertThat(path(frames, stack)).isEqualTo(park.getLong("timeout") - 1);
			}
		}
	}

	/** The paths 0 to {@code count - 1}: that many stacks of their own. */
	private static int[] firstPaths(int count) {
		return IntStream.range(0, count).toArray();
	}

	/**
	 * One park event per path, each parked through eleven calls of {@code left} or
	 * {@code right} spelling its number in binary, so that each is a stack of its own;
	 * its timeout is the number plus one.
	 */
	private static List<RecordedEvent> parksFrom(Path dir, int... paths) throws Exception {
		Path file = dir.resolve("parks.jfr");
		try (Recording recording = new Recording()) {
			recording.enable("jdk.ThreadPark").withThreshold(Duration.ZERO).withStackTrace();
			recording.start();
			for (int path : paths) {
				step(path, 10);
			}
			recording.stop();
			recording.dump(file);
		}
		List<RecordedEvent> parks = new ArrayList<>();
		for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
			if (event.getThread() != null && event.getThread().getJavaThreadId() == Thread.currentThread().getId()
					&& event.getStackTrace() != null && path(event) >= 0) {
				parks.add(event);
			}
		}
		assertThat(parks).hasSize(paths.length);
		Files.deleteIfExists(file);
		return parks;
	}

	private static long path(RecordedEvent event) {
		return event.getStackTrace()
			.getFrames()
			.stream()
			.anyMatch((frame) -> frame.getMethod().getName().equals("left")) ? event.getLong("timeout") - 1 : -1;
	}

	/** The number a converted stack spells, read outermost call first. */
	private static long path(FrameTable frames, int[] stack) {
		long path = 0;
		for (int frame : stack) {
			String name = frames.name(frame);
			if (name.endsWith("Test.left") || name.endsWith("Test.right")) {
				path = path * 2 + (name.endsWith("right") ? 1 : 0);
			}
		}
		return path;
	}

	private static void step(int path, int bit) {
		if (((path >> bit) & 1) == 0) {
			left(path, bit);
		}
		else {
			right(path, bit);
		}
	}

	private static void left(int path, int bit) {
		next(path, bit);
	}

	private static void right(int path, int bit) {
		next(path, bit);
	}

	private static void next(int path, int bit) {
		if (bit > 0) {
			step(path, bit - 1);
		}
		else {
			LockSupport.parkNanos(path + 1);
		}
	}

}
