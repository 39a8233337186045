package dev.spanprofile.sampling;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import one.jfr.ClassRef;
import one.jfr.JfrReader;
import one.jfr.MethodRef;
import one.jfr.StackTrace;

/**
 * Turns a recorded stack into interned frame ids, outermost caller first, whichever
 * reader produced it: the JDK's (Flight Recorder, the Pyroscope agent's recordings) or
 * async-profiler's own. One converter, so that a frame is named, classified and keyed the
 * same way by every engine: by its name and its kind.
 * <p>
 * Not thread-safe: one per engine, used by the thread that parses.
 */
public final class StackConverter {

	static final String UNKNOWN_STACK = "[unknown stack]";

	static final String TRUNCATED_STACK = "[truncated stack: raise -XX:FlightRecorderOptions:stackdepth]";

	// async-profiler's frame type codes as written into the JFR stack trace pool.
	private static final byte FRAME_NATIVE = 3;

	private static final byte FRAME_CPP = 4;

	private static final byte FRAME_KERNEL = 5;

	/**
	 * Frames seen recently, to spare the table's lock; bounded, the table is the truth.
	 */
	private static final int CACHE_LIMIT = 100_000;

	private static final int RECENT_STACKS_LIMIT = 1024;

	private final FrameTable frames;

	private final Map<FrameKey, Integer> cache = new HashMap<>();

	/**
	 * Stacks converted recently, by the parser's object: the JDK's parser hands out one
	 * object per stack of a chunk, and most wait events repeat a few stacks (a pool's
	 * idle workers parking between requests), whose frames are then not named again.
	 * Bounded, since its entries keep their chunk's objects alive.
	 */
	private final Map<RecordedStackTrace, int[]> recentStacks = new IdentityHashMap<>();

	/**
	 * Frames of methods named recently, by the parser's object (one per method of a
	 * chunk): a method met again in another stack is not named again. Naming costs a
	 * lookup of each field by name, each allocating an iterator, and most of the waits'
	 * stream's garbage was that. Bounded like {@link #recentStacks}.
	 */
	private final Map<RecordedMethod, Integer> recentMethodFrames = new IdentityHashMap<>();

	/** Methods of the JDK's parser named so far (for tests). */
	private long methodsNamed;

	public StackConverter(FrameTable frames) {
		this.frames = frames;
	}

	/**
	 * A stack read by the JDK's parser; {@code null} when the event had none. The array
	 * may be shared with other samples of the same stack: not to be changed.
	 */
	public int[] rootFirst(RecordedStackTrace trace) {
		if (trace == null) {
			return new int[] { frame(UNKNOWN_STACK, FrameKind.NATIVE) };
		}
		int[] known = this.recentStacks.get(trace);
		if (known != null) {
			return known;
		}
		if (this.recentStacks.size() >= RECENT_STACKS_LIMIT) {
			this.recentStacks.clear();
		}
		int[] stack = convert(trace);
		this.recentStacks.put(trace, stack);
		return stack;
	}

	private int[] convert(RecordedStackTrace trace) {
		List<RecordedFrame> recorded = trace.getFrames();
		int depth = recorded.size();
		int offset = trace.isTruncated() ? 1 : 0;
		int[] stack = new int[depth + offset];
		if (offset == 1) {
			// JFR keeps the innermost frames of a deep stack; say where the outer ones
			// went.
			stack[0] = frame(TRUNCATED_STACK, FrameKind.NATIVE);
		}
		for (int i = 0; i < depth; i++) {
			RecordedFrame frame = recorded.get(i);
			// JFR lists the leaf first; flame graphs want the outermost caller first.
			stack[offset + depth - 1 - i] = methodFrame(frame.getMethod(), kind(frame.getType()));
		}
		return stack;
	}

	private int methodFrame(RecordedMethod method, FrameKind kind) {
		if (method == null) {
			return frame("[unknown]", kind);
		}
		Integer known = this.recentMethodFrames.get(method);
		// A method's frames all have one kind (a native method's are native), but the
		// key is the name and the kind: a cached frame of another kind is not this one.
		if (known != null && this.frames.kind(known) == kind) {
			return known;
		}
		if (this.recentMethodFrames.size() >= RECENT_STACKS_LIMIT * 4) {
			this.recentMethodFrames.clear();
		}
		int id = frame(methodName(method), kind);
		this.recentMethodFrames.put(method, id);
		return id;
	}

	private String methodName(RecordedMethod method) {
		this.methodsNamed++;
		String className = (method.getType() != null) ? method.getType().getName() : null;
		return name(className, method.getName());
	}

	long methodsNamed() {
		return this.methodsNamed;
	}

	/**
	 * A stack of async-profiler's own reader. Method ids are only valid within one chunk:
	 * {@code chunkFrames} remembers them for the chunk being read.
	 */
	public int[] rootFirst(JfrReader reader, int stackTraceId, Map<Long, Integer> chunkFrames) {
		StackTrace trace = reader.stackTraces.get(stackTraceId);
		if (trace == null) {
			return new int[] { frame(UNKNOWN_STACK, FrameKind.NATIVE) };
		}
		int depth = trace.methods.length;
		int[] stack = new int[depth];
		for (int i = 0; i < depth; i++) {
			long methodId = trace.methods[i];
			FrameKind kind = kind(trace.types[i]);
			Long key = (methodId << 2) | kind.ordinal();
			Integer id = chunkFrames.get(key);
			if (id == null) {
				id = frame(methodName(reader, methodId), kind);
				chunkFrames.put(key, id);
			}
			stack[depth - 1 - i] = id;
		}
		return stack;
	}

	/** The id of one frame, named as on every instance ({@link StableFrameNames}). */
	public int frame(String name, FrameKind kind) {
		FrameKey key = new FrameKey(name, kind);
		Integer id = this.cache.get(key);
		if (id == null) {
			id = this.frames.intern(StableFrameNames.of(name), kind);
			if (this.cache.size() >= CACHE_LIMIT) {
				this.cache.clear();
			}
			this.cache.put(key, id);
		}
		return id;
	}

	/**
	 * The kind of a frame by its JFR type name: the JDK writes "Interpreted", "JIT
	 * compiled", "Inlined", "Native"; async-profiler adds "C++" and "Kernel".
	 */
	static FrameKind kind(String type) {
		if (type == null) {
			return FrameKind.JAVA;
		}
		return switch (type) {
			case "Kernel" -> FrameKind.KERNEL;
			case "Native", "C++" -> FrameKind.NATIVE;
			default -> FrameKind.JAVA;
		};
	}

	static FrameKind kind(byte type) {
		return switch (type) {
			case FRAME_KERNEL -> FrameKind.KERNEL;
			case FRAME_NATIVE, FRAME_CPP -> FrameKind.NATIVE;
			default -> FrameKind.JAVA;
		};
	}

	/** {@code package.Class.method}; native frames have no class. */
	static String name(String className, String methodName) {
		if (className == null || className.isEmpty()) {
			return methodName;
		}
		return className.replace('/', '.') + '.' + methodName;
	}

	private static String methodName(JfrReader reader, long methodId) {
		MethodRef method = reader.methods.get(methodId);
		if (method == null) {
			return "[unknown]";
		}
		ClassRef cls = reader.classes.get(method.cls);
		return name((cls != null) ? symbol(reader, cls.name) : null, symbol(reader, method.name));
	}

	private static String symbol(JfrReader reader, long id) {
		byte[] bytes = reader.symbols.get(id);
		return (bytes != null) ? new String(bytes, StandardCharsets.UTF_8) : "";
	}

	private record FrameKey(String name, FrameKind kind) {
	}

}
