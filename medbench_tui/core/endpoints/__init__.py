"""OpenAI-compatible model endpoints: the client, the batch's plain chat requests, fitting a
request into the context, how a failure is told, and the seeds a run's requests send."""
