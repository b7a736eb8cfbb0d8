/** A screen that a later issue builds: its title and a translated "coming" sentence. */
type Props = { title: string; text: string };

export function ComingScreen({ title, text }: Props) {
  return (
    <section>
      <h1 className="text-2xl font-bold tracking-tight text-ink">{title}</h1>
      <p className="mt-3 text-slate-700" data-coming>
        {text}
      </p>
    </section>
  );
}
