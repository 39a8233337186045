package dev.spanprofile;

import org.springframework.core.Ordered;
import org.springframework.test.annotation.DirtiesContext.HierarchyMode;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;

/**
 * Closes a test class's application when the class is done, as {@code @DirtiesContext}
 * does, for every class. Several test classes run one after another in one JVM (the
 * shared-jvm execution in this module's pom): a cached application would keep its
 * profiler, its server and its threads running under the next class's, and the profiler
 * is process-wide. Each class so gets an application of its own, as in a JVM of its own.
 */
public class OneApplicationPerTestClass implements TestExecutionListener, Ordered {

	@Override
	public void afterTestClass(TestContext testContext) {
		if (testContext.hasApplicationContext()) {
			testContext.markApplicationContextDirty(HierarchyMode.EXHAUSTIVE);
		}
	}

	/**
	 * First before, so last after: no other listener's after-callback finds it closed.
	 */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
