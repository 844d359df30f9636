/** A form's or dialog's error, announced when it appears; nothing when there is none. */
export function FormError({ message, id, className }: { message: string | null | undefined; id?: string; className?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className={className ? `form-error ${className}` : 'form-error'}>
      {message}
    </p>
  );
}
