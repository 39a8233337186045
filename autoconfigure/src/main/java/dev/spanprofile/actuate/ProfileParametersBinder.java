package dev.spanprofile.actuate;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.InvocationContext;
import org.springframework.boot.actuate.endpoint.OperationArgumentResolver;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvoker;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameters;

/**
 * Binds {@link ProfileParameters} from a request's query parameters for the
 * {@code spanprofile} endpoint's operations that take them. An actuator operation binds
 * each query parameter to a method parameter of its name; the flame graph operations take
 * ten, so they take them as one record instead, resolved here as Spring Boot resolves the
 * {@code Accept} header's format: the arguments of the invocation are every query
 * parameter of the request, declared or not. The same for {@link AwaitParameter}, and for
 * {@link CaptureParameters} from a write operation's body.
 */
public final class ProfileParametersBinder implements OperationInvokerAdvisor {

	@Override
	public OperationInvoker apply(EndpointId endpointId, OperationType operationType, OperationParameters parameters,
			OperationInvoker invoker) {
		if (!endpointId.equals(SpanProfileEndpoint.ID) || parameters.stream()
			.noneMatch((parameter) -> parameter.getType() == ProfileParameters.class
					|| parameter.getType() == CaptureParameters.class)) {
			return invoker;
		}
		return (context) -> invoker.invoke(new InvocationContext(context.resolveArgument(SecurityContext.class),
				context.getArguments(),
				OperationArgumentResolver.of(ProfileParameters.class,
						() -> ProfileParameters.of(context.getArguments())),
				OperationArgumentResolver.of(AwaitParameter.class, () -> new AwaitParameter(context.getArguments())),
				OperationArgumentResolver.of(CaptureParameters.class,
						() -> CaptureParameters.of(context.getArguments())),
				new Delegating(context)));
	}

	/** Whatever the original invocation resolved (the format, the security context). */
	private record Delegating(InvocationContext context) implements OperationArgumentResolver {

		@Override
		public boolean canResolve(Class<?> type) {
			return this.context.canResolve(type);
		}

		@Override
		public <T> T resolve(Class<T> type) {
			return this.context.resolveArgument(type);
		}

	}

}
