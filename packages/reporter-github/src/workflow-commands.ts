/**
 * GitHub Actions workflow commands (`::error file=…,line=…,title=…::message`), escaped the way the
 * runner decodes them: `%`, CR and LF in the message; additionally `:` and `,` in property values.
 */

export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export interface Annotation {
  level: 'error' | 'warning' | 'notice';
  message: string;
  file?: string;
  line?: number;
  title?: string;
}

export function annotation({ level, message, file, line, title }: Annotation): string {
  const props = [
    ...(file ? [`file=${escapeProperty(file)}`] : []),
    ...(file && line ? [`line=${line}`] : []),
    ...(title ? [`title=${escapeProperty(title)}`] : []),
  ];
  return `::${level}${props.length ? ` ${props.join(',')}` : ''}::${escapeData(message)}`;
}
