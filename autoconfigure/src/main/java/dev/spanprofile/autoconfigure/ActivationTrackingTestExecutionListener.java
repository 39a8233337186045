package dev.spanprofile.autoconfigure;

import dev.spanprofile.tracking.ActivationTracking;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

import org.springframework.util.ClassUtils;

/**
 * In a test run, an earlier test may touch the OpenTelemetry context before any Spring
 * application starts; this installs the hook when the JUnit run begins, as Spring Boot
 * does for its own context wrapper.
 */
public class ActivationTrackingTestExecutionListener implements TestExecutionListener {

	@Override
	public void testPlanExecutionStarted(TestPlan testPlan) {
		if (ClassUtils.isPresent("io.opentelemetry.context.ContextStorage",
				ActivationTrackingTestExecutionListener.class.getClassLoader())) {
			ActivationTracking.install();
		}
	}

}
